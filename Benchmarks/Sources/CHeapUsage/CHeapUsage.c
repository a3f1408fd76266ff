#include "CHeapUsage.h"

// <stdlib.h> pulls in <features.h>, which says whether this is glibc; <stddef.h> alone does not.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

size_t graft_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t graft_heap_bytes_in_use(void) { return 0; }
#endif
