#pragma once
// The kernels for Q4_0, IQ4_NL, MXFP4, IQ4_XS, Q8_0, Q4_K and Q6_K weights
// in the interleaved layout (kernels/interleave.h) against interleaved Q8_0
// (the K types: Q8_K) activations, written once for every vector width.
// Each integer dot step adds four products into each block's 32-bit lane,
// so a group of 16 blocks costs 8 steps per (row, token) pair plus one
// conversion and one multiply-add per vector of block scales, where the
// block-at-a-time kernels spend three float operations per two blocks.
//
// V, the instruction set's vector operations, gives the integer dot (one
// vpdpbusd with VNNI; without, vpmaddubsw's 16-bit pair sums, several dot
// steps of them added up before one vpmaddwd widens them) and the width: a
// 512-bit vector holds a group's 16 lanes, a 256-bit one half of them, so
// a group takes V::kHalves passes, each over its own bytes of every vector
// and header (half h of a 64-byte vector is bytes 32h..32h+31).
//
// Weights enter as unsigned bytes (Q4_0's stored nibbles, the table types'
// values plus 128 or 16, Q8_0 plus 128, Q6_K's stored 0..63), so each
// lane's integer sum starts from -offset * (the block's activation sum),
// the interleaved activations' negated sums shifted by log2(offset).
//
// Included only by the matmul_interleaved_<isa>.cpp files; everything is in
// an unnamed namespace so that each gets its own copy for its instructions.

#include <cstddef>
#include <cstdint>

#include "kernels/interleave.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"

namespace ingot::kernels {
namespace {

constexpr size_t kXQuants = 128;  // activation quants follow 16 scales and 16 sums

// Where half h of a group's per-lane data starts, for data of `bytes` a lane.
template <class V>
constexpr size_t half_offset(int h, size_t bytes) {
  return static_cast<size_t>(h) * V::kLanes * bytes;
}

// Q4_0's nibbles are its unsigned quants as they are.
template <class V>
struct PlainNibbles {
  typename V::I operator()(typename V::I nibbles) const { return nibbles; }
};

// IQ4_NL's and MXFP4's nibbles index a table of 16 bytes, its values plus
// the type's offset.
template <class V>
struct TableNibbles {
  typename V::I table;
  typename V::I operator()(typename V::I nibbles) const { return V::lookup(table, nibbles); }
};

// Dot steps of unsigned bytes up to kMaxValue (times activations of at most
// 128 in magnitude) whose 16-bit pair sums V adds up before widening them
// into the 32-bit lanes: a power of two, so that it divides a run of 8; 0
// where V's dot adds into the lanes directly (VNNI).
template <class V, int kMaxValue>
constexpr int pair_sum_steps() {
  if constexpr (!V::kPairSums) {
    return 0;
  } else {
    constexpr int kPairMax = 2 * kMaxValue * 128;
    static_assert(kPairMax <= 32767, "pair sums of these values saturate");
    int steps = 1;
    while (2 * steps * kPairMax <= 32767 && steps < 8) steps *= 2;
    return steps;
  }
}

// The integer dots of R x T (row, token) pairs over a run of dot steps:
// add(r, t, u, s) takes one step. Where V sums pairs first (pair_sum_steps
// > 0), a vpmaddwd and an add per kSteps steps replace one per step, and
// pairs are widened into acc at the end of every kSteps; call widen(step)
// after each step's pairs for all (r, t).
template <class V, int kMaxValue, int R, int T>
struct DotRun {
  using I = typename V::I;
  static constexpr int kSteps = pair_sum_steps<V, kMaxValue>();
  I (&acc)[R][T];
  I pairs[R][T];

  explicit DotRun(I (&sums)[R][T]) : acc(sums) {
    if constexpr (kSteps > 0) {
      for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) pairs[r][t] = V::zero();
      }
    }
  }
  [[gnu::always_inline]] void add(int r, int t, I u, I s) {
    if constexpr (kSteps == 1) {
      pairs[r][t] = V::pair_products(u, s);
    } else if constexpr (kSteps > 0) {
      pairs[r][t] = V::add_pairs(pairs[r][t], V::pair_products(u, s));
    } else {
      acc[r][t] = V::dot(acc[r][t], u, s);
    }
  }
  // After step `step` (0-based) of the run.
  [[gnu::always_inline]] void widen(int step) {
    if constexpr (kSteps > 0) {
      if ((step + 1) % kSteps != 0) return;
      for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) {
          acc[r][t] = V::widen_pairs(acc[r][t], pairs[r][t]);
          pairs[r][t] = V::zero();
        }
      }
    }
  }
};

// Products of R rows of nibble quants (4 vectors from each w[r],
// kernels/interleave.h), half h of each, each nibble turned into its
// unsigned quant (at most kMaxValue) by `decode`, with T tokens'
// activations, added to acc. Tiles of up to V::kSplitDotsUpTo outputs keep
// the high nibbles' sums apart, two chains of dependent dot steps instead
// of one, where the registers allow.
template <class V, int R, int T, int kMaxValue = 15, class Decode = PlainNibbles<V>>
inline void nibble_dots(const uint8_t* const* w, const uint8_t* const* x, int h,
                        typename V::I (&acc)[R][T], Decode decode = {}) {
  using I = typename V::I;
  const size_t at = half_offset<V>(h, 4);
  if constexpr (V::kPairSums) {
    DotRun<V, kMaxValue, R, T> run(acc);
    for (int k = 0; k < 4; ++k) {
      for (int r = 0; r < R; ++r) {
        const I q = V::load(w[r] + k * 64 + at);
        const I lo = decode(V::low_nibbles(q));
        const I hi = decode(V::high_nibbles(q));
        for (int t = 0; t < T; ++t) {
          run.add(r, t, lo, V::load(x[t] + kXQuants + k * 64 + at));
          run.add(r, t, hi, V::load(x[t] + kXQuants + (k + 4) * 64 + at));
        }
      }
      run.widen(2 * k + 1);
    }
    return;
  }
  I acc_hi[R][T];
  for (int r = 0; r < R; ++r) {
    for (int t = 0; t < T; ++t) acc_hi[r][t] = V::zero();
  }
  for (int k = 0; k < 4; ++k) {
    for (int r = 0; r < R; ++r) {
      const I q = V::load(w[r] + k * 64 + at);
      const I lo = decode(V::low_nibbles(q));
      const I hi = decode(V::high_nibbles(q));
      for (int t = 0; t < T; ++t) {
        acc[r][t] = V::dot(acc[r][t], lo, V::load(x[t] + kXQuants + k * 64 + at));
        const I x_hi = V::load(x[t] + kXQuants + (k + 4) * 64 + at);
        if constexpr (R * T <= V::kSplitDotsUpTo) {
          acc_hi[r][t] = V::dot(acc_hi[r][t], hi, x_hi);
        } else {
          acc[r][t] = V::dot(acc[r][t], hi, x_hi);
        }
      }
    }
  }
  if constexpr (R * T <= V::kSplitDotsUpTo) {
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = V::add(acc[r][t], acc_hi[r][t]);
    }
  }
}

// kOffsetShift of quants that are signed bytes as they are: no seed.
inline constexpr int kNoOffset = -1;

// The seed of each lane's integer sum: -offset times the activation sums.
template <class V, int kOffsetShift>
inline typename V::I offset_seed(const uint8_t* x, int h) {
  return V::template shift_left<kOffsetShift>(V::load(x + 64 + half_offset<V>(h, 4)));
}

// dots = each lane's seed (seed(t), token t's) plus what `add_dots` adds
// to its sums. The seed goes in first where the dots add into the 32-bit
// lanes (one register per output either way); pair sums (V::kPairSums)
// keep their own registers until they widen, so there the seed comes last
// and does not hold registers through the steps.
template <class V, int R, int T, class Seed, class AddDots>
[[gnu::always_inline]] inline void dots_from_seeds(Seed seed, typename V::I (&dots)[R][T],
                                                   AddDots add_dots) {
  if constexpr (V::kPairSums) {
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) dots[r][t] = V::zero();
    }
    add_dots(dots);
    for (int t = 0; t < T; ++t) {
      const typename V::I s = seed(t);
      for (int r = 0; r < R; ++r) dots[r][t] = V::add(dots[r][t], s);
    }
  } else {
    for (int t = 0; t < T; ++t) {
      const typename V::I s = seed(t);
      for (int r = 0; r < R; ++r) dots[r][t] = s;
    }
    add_dots(dots);
  }
}

// dots = the offset seed of each lane (none for kNoOffset) plus what
// `add_dots` adds to its sums.
template <class V, int kOffsetShift, int R, int T, class AddDots>
[[gnu::always_inline]] inline void seeded_dots(const uint8_t* const* xs, int h,
                                               typename V::I (&dots)[R][T], AddDots add_dots) {
  if constexpr (kOffsetShift == kNoOffset) {
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) dots[r][t] = V::zero();
    }
    add_dots(dots);
  } else {
    dots_from_seeds<V, R, T>([&](int t) { return offset_seed<V, kOffsetShift>(xs[t], h); }, dots,
                             add_dots);
  }
}

// The activations' scales (F32) of half h.
template <class V>
inline typename V::F x_scales(const uint8_t* x, int h) {
  return V::load_floats(x + half_offset<V>(h, 4));
}

// Q4_0, IQ4_NL, MXFP4 and Q8_0: unsigned quants whose offset each lane's
// integer sum starts from, and one scale per block (F16; MXFP4's F32).
// Quants gives kType, kOffsetShift and dot<R, T>.
template <class V, class Quants>
struct ScaledBlockGroups {
  static constexpr GroupLayout kLayout = group_layout(Quants::kType);
  using I = typename V::I;
  using F = typename V::F;

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, F (&acc)[R][T]) {
    for (int h = 0; h < V::kHalves; ++h) {
      I dots[R][T];
      seeded_dots<V, Quants::kOffsetShift, R, T>(
          xs, h, dots, [&](I(&sums)[R][T]) { Quants::template dot<R, T>(quants, xs, h, sums); });
      for (int r = 0; r < R; ++r) {
        const uint8_t* header = quants[r] + to_header;
        F dw;
        if constexpr (Quants::kType == ElementType::kMXFP4) {
          dw = V::load_floats(header + half_offset<V>(h, 4));
        } else {
          dw = V::f16s(header + half_offset<V>(h, 2));
        }
        for (int t = 0; t < T; ++t) {
          acc[r][t] =
              V::fmadd(V::to_float(dots[r][t]), V::mul(dw, x_scales<V>(xs[t], h)), acc[r][t]);
        }
      }
    }
  }
};

template <class V>
struct Q4_0Groups : ScaledBlockGroups<V, Q4_0Groups<V>> {
  static constexpr ElementType kType = ElementType::kQ4_0;
  static constexpr int kOffsetShift = 3;  // offset 8

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, int h,
                         typename V::I (&acc)[R][T]) {
    nibble_dots<V, R, T>(w, x, h, acc);
  }
};

// IQ4_NL's values -127..113, plus 128.
// (129 and up are the bytes' two's-complement values.)
inline constexpr int8_t kIq4NlPlus128[16] = {1,    24,   45,   63,  79,  93,  106, 118,
                                             -127, -115, -103, -90, -75, -59, -39, -15};

// Products of R rows of nibbles indexing a table of signed values with T
// tokens' activations, for paths that sum 16-bit pairs: a pair of the
// values plus 128 times activations can pass 32767, so each step
// multiplies the values' magnitudes by the activations given the values'
// signs (at most 2 * 127 * 127 a pair; activations never reach -128) and
// widens at once.
template <class V, int R, int T>
inline void signed_table_dots(const uint8_t* const* w, const uint8_t* const* x, int h,
                              const typename V::I table, typename V::I (&acc)[R][T]) {
  using I = typename V::I;
  const size_t at = half_offset<V>(h, 4);
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    for (int r = 0; r < R; ++r) {
      const I q = V::load(w[r] + k * 64 + at);
      const I lo = V::lookup(table, V::low_nibbles(q));
      const I hi = V::lookup(table, V::high_nibbles(q));
      const I lo_abs = V::abs_bytes(lo), hi_abs = V::abs_bytes(hi);
      for (int t = 0; t < T; ++t) {
        const I x_lo = V::load(x[t] + kXQuants + k * 64 + at);
        const I x_hi = V::load(x[t] + kXQuants + (k + 4) * 64 + at);
        acc[r][t] = V::widen_pairs(acc[r][t], V::pair_products(lo_abs, V::with_signs_of(x_lo, lo)));
        acc[r][t] = V::widen_pairs(acc[r][t], V::pair_products(hi_abs, V::with_signs_of(x_hi, hi)));
      }
    }
  }
}

// IQ4_NL: with VNNI its values plus 128 (unsigned), whose offset seeds the
// sums; where V sums pairs, the signed values (signed_table_dots), no seed.
template <class V>
struct IQ4_NLGroups : ScaledBlockGroups<V, IQ4_NLGroups<V>> {
  static constexpr ElementType kType = ElementType::kIQ4_NL;
  static constexpr int kOffsetShift = V::kPairSums ? kNoOffset : 7;  // offset 128

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, int h,
                         typename V::I (&acc)[R][T]) {
    if constexpr (V::kPairSums) {
      signed_table_dots<V, R, T>(w, x, h, V::table(kIq4NlValues), acc);
    } else {
      nibble_dots<V, R, T, 241>(w, x, h, acc, TableNibbles<V>{V::table(kIq4NlPlus128)});
    }
  }
};

// MXFP4's doubled FP4 values -12..12, plus 16.
inline constexpr int8_t kMxfp4Plus16[16] = {16, 17, 18, 19, 20, 22, 24, 28,
                                            16, 15, 14, 13, 12, 10, 8,  4};

template <class V>
struct MXFP4Groups : ScaledBlockGroups<V, MXFP4Groups<V>> {
  static constexpr ElementType kType = ElementType::kMXFP4;
  static constexpr int kOffsetShift = 4;  // offset 16

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, int h,
                         typename V::I (&acc)[R][T]) {
    nibble_dots<V, R, T, 28>(w, x, h, acc, TableNibbles<V>{V::table(kMxfp4Plus16)});
  }
};

// Q8_0: its quants plus 128. Where V sums 16-bit pairs (no VNNI), a pair
// of such bytes times activations can pass 32767, so the quants go back to
// signed bytes and each step multiplies their magnitudes by the
// activations given the quants' signs (at most 2 * 128 * 127 a pair, one
// step per widening), with no offset to seed.
template <class V>
struct Q8_0Groups : ScaledBlockGroups<V, Q8_0Groups<V>> {
  static constexpr ElementType kType = ElementType::kQ8_0;
  static constexpr int kOffsetShift = V::kPairSums ? kNoOffset : 7;  // offset 128

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, int h,
                         typename V::I (&acc)[R][T]) {
    using I = typename V::I;
    const size_t at = half_offset<V>(h, 4);
    DotRun<V, 127, R, T> run(acc);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      for (int r = 0; r < R; ++r) {
        const I stored = V::load(w[r] + j * 64 + at);
        I q = stored, u = stored;  // with VNNI: the stored bytes, unsigned
        if constexpr (V::kPairSums) {
          q = V::signed_bytes(stored);
          u = V::abs_bytes(q);
        }
        for (int t = 0; t < T; ++t) {
          const I s = V::load(x[t] + kXQuants + j * 64 + at);
          if constexpr (V::kPairSums) {
            run.add(r, t, u, V::with_signs_of(s, q));
          } else {
            run.add(r, t, u, s);
          }
        }
      }
      run.widen(j);
    }
  }
};

// Q4_K: each lane is a sub-block with its own scale d * sc and min
// dmin * m, so the integer dots start from zero and each (row, token) pair
// adds two float terms per group: dot * (d * sc) * dx, and the min term
// (dmin * m) * (-dx * activation sum). A group is two super-blocks: the
// header's F16 d of each (words 0, 1), dmin of each (words 2, 3), then
// 16 scales and 16 mins, a byte a lane.
template <class V>
struct Q4KGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kQ4_K);
  using I = typename V::I;
  using F = typename V::F;

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, F (&acc)[R][T]) {
    for (int h = 0; h < V::kHalves; ++h) {
      I dots[R][T];
      for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) dots[r][t] = V::zero();
      }
      nibble_dots<V, R, T>(quants, xs, h, dots);
      F x_scale[T], x_min[T];
      for (int t = 0; t < T; ++t) {
        x_scale[t] = x_scales<V>(xs[t], h);
        x_min[t] = V::mul(V::to_float(V::load(xs[t] + 64 + half_offset<V>(h, 4))), x_scale[t]);
      }
      for (int r = 0; r < R; ++r) {
        const uint8_t* header = quants[r] + to_header;
        const F scale =
            V::mul(V::superblock_f16s(header, h), V::u8s(header + 8 + half_offset<V>(h, 1)));
        const F min =
            V::mul(V::superblock_f16s(header + 4, h), V::u8s(header + 24 + half_offset<V>(h, 1)));
        for (int t = 0; t < T; ++t) {
          acc[r][t] = V::fmadd(V::to_float(dots[r][t]), V::mul(scale, x_scale[t]), acc[r][t]);
          acc[r][t] = V::fmadd(min, x_min[t], acc[r][t]);
        }
      }
    }
  }
};

// IQ4_XS: each lane is a sub-block with its own scale d * (s - 32) and
// IQ4_NL's table (its dots: plus 128 and seeded by -128 times the
// activation sums with VNNI, signed where V sums pairs), so one float term
// per (row, token) pair follows. The
// header: the F16 d of each super-block, then the 16 scales less 32.
template <class V>
struct IQ4XSGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kIQ4_XS);
  using I = typename V::I;
  using F = typename V::F;

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, F (&acc)[R][T]) {
    for (int h = 0; h < V::kHalves; ++h) {
      I dots[R][T];
      seeded_dots<V, IQ4_NLGroups<V>::kOffsetShift, R, T>(xs, h, dots, [&](I(&sums)[R][T]) {
        IQ4_NLGroups<V>::template dot<R, T>(quants, xs, h, sums);
      });
      for (int r = 0; r < R; ++r) {
        const uint8_t* header = quants[r] + to_header;
        const F scale =
            V::mul(V::superblock_f16s(header, h), V::i8s(header + 4 + half_offset<V>(h, 1)));
        for (int t = 0; t < T; ++t) {
          acc[r][t] =
              V::fmadd(V::to_float(dots[r][t]), V::mul(scale, x_scales<V>(xs[t], h)), acc[r][t]);
        }
      }
    }
  }
};

// Q6_K: each lane is a 32-element chunk holding two sub-blocks with their
// own scales, so a group takes two parts, each with its own integer sums
// and float epilogue: the even sub-blocks (activation vectors 0-3), then
// the odd ones (4-7). The values are unsigned 0..63; the -32 offset is
// -32 times each sub-block's activation sum, from the activations' half
// and whole negated sums, and seeds the integer sums.
template <class V>
struct Q6KGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kQ6_K);
  using I = typename V::I;
  using F = typename V::F;

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, F (&acc)[R][T]) {
    // Unrolled whole: left as loops, the float sums lived on the stack.
#pragma GCC unroll 2
    for (int h = 0; h < V::kHalves; ++h) {
#pragma GCC unroll 2
      for (int part = 0; part < 2; ++part) {
        I dots[R][T];
        const auto seed = [&](int t) {
          const size_t at = half_offset<V>(h, 4);
          const I neg_even = V::load(xs[t] + kActivationHalfSumsOffset + at);
          // The odd part's negated sum is the whole's minus the even part's.
          const I neg_sum = part == 0 ? neg_even : V::sub(V::load(xs[t] + 64 + at), neg_even);
          return V::template shift_left<5>(neg_sum);
        };
        dots_from_seeds<V, R, T>(
            seed, dots, [&](I(&sums)[R][T]) { six_bit_dots<R, T>(quants, part, h, xs, sums); });
        add_scaled<R, T>(quants, to_header, part, h, xs, dots, acc);
      }
    }
  }

 private:
  // Vector k (0-3) of a part's values, from its A, B, C vectors.
  static I values(const uint8_t* abc, int k) {
    if (k < 3) return V::six_bits(V::load(abc + 64 * k));
    // Bits 6-7 of A, B, C to bits 0-1, 2-3, 4-5. With each byte's bits 0-5
    // cleared first, the word shifts carry nothing into the byte below, so
    // no mask follows them (one constant, 0x3f, for all four vectors).
    const I low = V::template shift_words_right<6>(V::top_two_bits(V::load(abc)));
    const I mid = V::template shift_words_right<4>(V::top_two_bits(V::load(abc + 64)));
    const I top = V::template shift_words_right<2>(V::top_two_bits(V::load(abc + 128)));
    return V::either(V::either(low, mid), top);
  }

  template <int R, int T>
  [[gnu::always_inline]] static void six_bit_dots(const uint8_t* const* quants, int part, int h,
                                                  const uint8_t* const* xs, I (&dots)[R][T]) {
    const size_t at = half_offset<V>(h, 4);
    DotRun<V, 63, R, T> run(dots);
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      for (int r = 0; r < R; ++r) {
        const I w = values(quants[r] + 3 * 64 * part + at, k);
        for (int t = 0; t < T; ++t) {
          run.add(r, t, w, V::load(xs[t] + kXQuants + (4 * part + k) * 64 + at));
        }
      }
      run.widen(k);
    }
  }

  // acc += dots * (d * the part's sub-block scales) * activation scale. The
  // header: the F16 d of each super-block, the 16 even sub-blocks' scales,
  // the 16 odd ones'.
  template <int R, int T>
  [[gnu::always_inline]] static void add_scaled(const uint8_t* const* quants, ptrdiff_t to_header,
                                                int part, int h, const uint8_t* const* xs,
                                                const I (&dots)[R][T], F (&acc)[R][T]) {
    for (int r = 0; r < R; ++r) {
      const uint8_t* header = quants[r] + to_header;
      const F scale = V::mul(V::superblock_f16s(header, h),
                             V::i8s(header + 4 + 16 * part + half_offset<V>(h, 1)));
      for (int t = 0; t < T; ++t) {
        acc[r][t] =
            V::fmadd(V::to_float(dots[r][t]), V::mul(scale, x_scales<V>(xs[t], h)), acc[r][t]);
      }
    }
  }
};

// One micro-tile over a matrix's groups; G (the block type's groups) gives
// kLayout (kernels/interleave.h) and accumulate<R, T>(quants, to_header,
// xs, acc), which adds one group's products to acc (row r's header is at
// quants[r] + to_header). V gives the micro-tile sizes its registers hold.
// accumulate is forced inline: called, it kept acc in memory, which made
// the 1-token kernel slower.
template <class V, class G>
struct Interleaved {
  static constexpr int kRows = V::kRows;
  static constexpr int kTokens = V::kTokens;
  static constexpr int kDecodeRows = V::kDecodeRows;
  // 2 to 4 tokens: micro-tiles of kSmallBatchRows rows x 2 tokens, which
  // for 4 tokens beats 4 x 3 then 4 x 1: that reads every group twice and,
  // for Q4_0, unpacks every nibble twice (docs/performance.md).
  static constexpr int kSmallBatchRows = V::kSmallBatchRows;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    constexpr GroupLayout kLayout = G::kLayout;
    // Bytes from one group's quants, and header, to the next group's.
    constexpr size_t kGroupBytes = kLayout.header_bytes + kLayout.quant_bytes;
    constexpr size_t kQuantStep = kLayout.headers_apart ? kLayout.quant_bytes : kGroupBytes;
    constexpr size_t kHeaderStep = kLayout.headers_apart ? kLayout.header_bytes : kGroupBytes;
    const auto* row0 = static_cast<const uint8_t*>(w.interleaved) + r0 * w.interleaved_stride;
    const uint8_t* quants[R];
    for (int r = 0; r < R; ++r) {
      quants[r] =
          row0 + r * w.interleaved_stride + (kLayout.headers_apart ? 0 : kLayout.header_bytes);
    }
    // From each row's current quants to its current header: the same for
    // every row, so the rows need one pointer each (with two, 6-row tiles
    // spilled them).
    ptrdiff_t to_header = kLayout.headers_apart
                              ? static_cast<ptrdiff_t>(headers_offset(kLayout, w.cols))
                              : -static_cast<ptrdiff_t>(kLayout.header_bytes);
    const uint8_t* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = x.interleaved_row(t0 + t);
    typename V::F acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = V::zero_floats();
    }
    const int64_t n_groups = interleaved_groups(w.cols);
    const TilePrefetch prefetch(row0, R, w.interleaved_stride, n_groups, t0, T, x.n_tokens());
    for (int64_t g = 0; g < n_groups; ++g) {
      prefetch.step(g);
      G::template accumulate<R, T>(quants, to_header, xs, acc);
      for (int r = 0; r < R; ++r) quants[r] += kQuantStep;
      to_header -= static_cast<ptrdiff_t>(kQuantStep - kHeaderStep);
      for (int t = 0; t < T; ++t) xs[t] += kActivationGroupBytes;
    }
    V::template store_tile_sums<R, T>(acc, y, y_stride, r0, t0);
  }
};

}  // namespace
}  // namespace ingot::kernels
