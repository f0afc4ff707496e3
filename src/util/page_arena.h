#pragma once
// Anonymous memory for data read at full memory bandwidth (weights copied
// into a kernel's layout at load), advised for transparent huge pages:
// with 4 KiB pages a decode step walks a new TLB entry every 4 KiB of
// weights. One arena holds all of a model's copies, so rounding to a huge
// page is paid once.

#include <cstddef>
#include <cstdint>

namespace ingot {

class PageArena {
 public:
  PageArena() = default;
  // Reserves `bytes`; the pages are touched when written.
  explicit PageArena(size_t bytes);
  PageArena(PageArena&& other) noexcept;
  PageArena& operator=(PageArena&& other) noexcept;
  PageArena(const PageArena&) = delete;
  PageArena& operator=(const PageArena&) = delete;
  ~PageArena();

  // The arena bytes that take(bytes) uses: what to reserve for a list of
  // slices is the sum of this over them.
  static size_t footprint(size_t bytes);

  // The next `bytes`, 64-byte aligned; null when the arena is full or was
  // never reserved.
  uint8_t* take(size_t bytes);
  size_t capacity() const { return capacity_; }
  // Whether `p` points into the bytes taken so far.
  bool holds(const void* p) const {
    const auto* byte = static_cast<const uint8_t*>(p);
    return base_ != nullptr && byte >= base_ && byte < base_ + used_;
  }

 private:
  void release();

  uint8_t* base_ = nullptr;
  size_t mapped_ = 0;    // bytes mapped (whole huge pages)
  size_t capacity_ = 0;  // bytes asked for
  size_t used_ = 0;
};

}  // namespace ingot
