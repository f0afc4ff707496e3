#pragma once
// The orthonormal Walsh-Hadamard rotation H_n (Sylvester's order, scaled
// by 1/sqrt(n); H_n H_n = I), applied to every run of n floats:
//   H_1 = [1],  H_2s = [[H_s, H_s], [H_s, -H_s]] / sqrt(2)
// llama.cpp rotates keys, queries and values by it before quantizing a KV
// cache, which spreads a head's outliers over all its dimensions so that
// one group's scale fits them better; scores are unchanged (q H . k H =
// q . k), and the attention output is rotated back.

#include <cstdint>

namespace ingot::kernels {

// x[0, count) in runs of n (a power of two dividing count), each replaced
// by H_n times it.
void hadamard_rotate(float* x, int64_t count, int64_t n);

}  // namespace ingot::kernels
