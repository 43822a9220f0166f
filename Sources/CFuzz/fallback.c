#include <stdio.h>
#include "CFuzz.h"

__attribute__((weak)) int LLVMFuzzerRunDriver(
    int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) {
  (void)argc;
  (void)argv;
  (void)callback;
  fprintf(stderr, "this fuzz target was not built with -sanitize=fuzzer; see Scripts/fuzz.sh\n");
  return 2;
}
