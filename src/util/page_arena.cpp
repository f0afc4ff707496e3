#include "util/page_arena.h"

#include <sys/mman.h>

#include <new>
#include <utility>

namespace ingot {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kAlignment = 64;

size_t round_up(size_t n, size_t to) {
  return (n + to - 1) / to * to;
}

}  // namespace

PageArena::PageArena(size_t bytes) : capacity_(bytes) {
  if (bytes == 0) return;
  mapped_ = round_up(bytes, kHugePage);
  // Address space only: pages are committed as they are written, so a
  // reservation larger than what is ever used (a KV cache's prompt-cache
  // room) costs nothing and is not refused by overcommit accounting.
  void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<uint8_t*>(p);
  // Advice only: without transparent huge pages (or off Linux, where there
  // is no such advice) the arena still works.
#if defined(MADV_HUGEPAGE)
  ::madvise(base_, mapped_, MADV_HUGEPAGE);
#endif
}

PageArena::PageArena(PageArena&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      mapped_(std::exchange(other.mapped_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      used_(std::exchange(other.used_, 0)) {}

PageArena& PageArena::operator=(PageArena&& other) noexcept {
  if (this != &other) {
    release();
    base_ = std::exchange(other.base_, nullptr);
    mapped_ = std::exchange(other.mapped_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    used_ = std::exchange(other.used_, 0);
  }
  return *this;
}

PageArena::~PageArena() {
  release();
}

size_t PageArena::footprint(size_t bytes) {
  return round_up(bytes, kAlignment);
}

uint8_t* PageArena::take(size_t bytes) {
  const size_t start = round_up(used_, kAlignment);
  if (base_ == nullptr || start + bytes > capacity_) return nullptr;
  used_ = start + bytes;
  return base_ + start;
}

void PageArena::release() {
  if (base_ != nullptr) ::munmap(base_, mapped_);
  base_ = nullptr;
  mapped_ = capacity_ = used_ = 0;
}

}  // namespace ingot
