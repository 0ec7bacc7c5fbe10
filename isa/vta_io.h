/*
 * vta_io.h - whole-file reading shared by every parser in vtasim, so that each
 * reports I/O failures the same way (file name and the system's reason).
 */
#ifndef VTA_IO_H
#define VTA_IO_H

#include <stddef.h>
#include <stdint.h>

#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read a file into a NUL-terminated malloc'd buffer (*len excludes the NUL). */
int vta_read_file(const char *path, uint8_t **data, size_t *len, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
