#pragma once
// The constants of the vector paths' e^d in double (exp_pd in
// ops_vector_math_<isa>.h): d = k ln2 + r with
// |r| <= ln2/2 and e^r by its Taylor polynomial to r^13 (the next term is
// below 2^-57). ln2 is split in two so that k * ln2 subtracts exactly.

namespace ingot::kernels::exp_taylor {

// d is clamped to [-kLimit, kLimit]: e^d is 0 or inf well inside it.
inline constexpr double kLimit = 1000.0;
inline constexpr double kLog2E = 1.4426950408889634;
inline constexpr double kLn2High = 6.93147180369123816490e-01;
inline constexpr double kLn2Low = 1.90821492927058770002e-10;

// 1/n! from n = 13 down to 0: Horner's order.
inline constexpr int kTerms = 14;
inline constexpr double kInverseFactorials[kTerms] = {1.0 / 6227020800.0,
                                                      1.0 / 479001600.0,
                                                      1.0 / 39916800.0,
                                                      1.0 / 3628800.0,
                                                      1.0 / 362880.0,
                                                      1.0 / 40320.0,
                                                      1.0 / 5040.0,
                                                      1.0 / 720.0,
                                                      1.0 / 120.0,
                                                      1.0 / 24.0,
                                                      1.0 / 6.0,
                                                      0.5,
                                                      1.0,
                                                      1.0};

}  // namespace ingot::kernels::exp_taylor
