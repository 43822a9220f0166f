#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver; a plain build links a fallback that explains how to build for fuzzing.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));
