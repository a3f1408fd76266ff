#ifndef GRAFT_BENCHMARKS_C_HEAP_USAGE_H
#define GRAFT_BENCHMARKS_C_HEAP_USAGE_H

#include <stddef.h>

/// The bytes malloc has handed out and not yet taken back: glibc's `mallinfo2()`, `uordblks`
/// (in use from the main arenas) plus `hblkhd` (large blocks mapped on their own). The Swift
/// overlay does not import `mallinfo2`, hence this C target. Returns 0 where glibc is missing.
size_t graft_heap_bytes_in_use(void);

#endif
