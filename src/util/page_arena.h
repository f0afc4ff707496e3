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

  // The next `bytes`, 64-byte aligned; null when the arena is full or was
  // never reserved.
  uint8_t* take(size_t bytes);
  size_t capacity() const { return capacity_; }

 private:
  void release();

  uint8_t* base_ = nullptr;
  size_t mapped_ = 0;    // bytes mapped (whole huge pages)
  size_t capacity_ = 0;  // bytes asked for
  size_t used_ = 0;
};

// Drops this process's mapping of the whole pages inside [data, data +
// bytes) of a read-only file map, after their contents were copied
// elsewhere: they stop counting toward the process's memory, and come back
// from the file (the page cache) if anything reads them again.
void release_mapped_pages(const void* data, size_t bytes);

}  // namespace ingot
