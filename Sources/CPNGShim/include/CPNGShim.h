// CPNGShim: libpng's classic API behind functions that return error codes.
//
// libpng reports errors with longjmp (libpng manual, "Setting up error handling"); Swift cannot
// catch that, and an error handler that returns is undefined behaviour. Every setjmp lives in the
// functions below, so a corrupt PNG or a failed allocation comes back as a code and a message and
// never aborts the process that called. Only PNGCodec imports this module.
#ifndef FAILSCOPE_CPNGSHIM_H
#define FAILSCOPE_CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Result codes of the functions below.
enum {
    FS_PNG_OK = 0,
    /// libpng reported an error; the message buffer says which.
    FS_PNG_ERROR = 1,
    /// An allocation failed.
    FS_PNG_NO_MEMORY = 2,
    /// The input ended before the image did.
    FS_PNG_TRUNCATED = 3,
    /// The image is larger than the limits given.
    FS_PNG_TOO_LARGE = 4,
};

/// Filter selections for fs_png_encode (the PNG_FILTER_* bit masks of png.h, which Swift does not import).
enum {
    FS_PNG_FILTER_NONE = 0x08,
    FS_PNG_FILTER_SUB = 0x10,
    FS_PNG_FILTER_UP = 0x20,
    FS_PNG_FILTER_AVG = 0x40,
    FS_PNG_FILTER_PAETH = 0x80,
    FS_PNG_ALL_FILTERS = 0xF8,
    /// Not a libpng mask: choose NONE, SUB or UP per row in the shim (see fs_png_encode).
    FS_PNG_FILTER_PER_ROW_NONE_SUB_UP = 0x1000,
    /// Not a libpng mask: UP for a row equal to the one above, else SUB or UP, per row.
    FS_PNG_FILTER_PER_ROW_SUB_UP = 0x2000,
    /// Not a libpng mask: UP for a row equal to the one above, else NONE.
    FS_PNG_FILTER_PER_ROW_REPEAT_UP = 0x4000,
};

/// Encodes 8-bit RGB pixels as a non-interlaced 8-bit RGB PNG.
///
/// `pixels` holds `height` rows of `row_bytes` bytes; each pixel is `bytes_per_pixel` bytes, 3 (RGB)
/// or 4 (RGBX: the fourth byte is dropped). `level` is zlib's 0-9, `filters` a mask of FS_PNG_FILTER_*,
/// `strategy` zlib's Z_DEFAULT_STRATEGY (0), Z_FILTERED (1), Z_HUFFMAN_ONLY (2), Z_RLE (3), Z_FIXED (4).
/// On FS_PNG_OK `*out_data` is a malloc'd buffer of `*out_size` bytes that the caller frees with
/// fs_png_free; otherwise nothing is allocated and `message` (capacity `message_capacity`) says why.
///
/// With `filters` = FS_PNG_FILTER_PER_ROW_*, the shim picks one filter per row itself (libpng allows
/// changing filters between rows when all were enabled at the start, png_set_filter in pngwrite.c):
/// UP for a row equal to the one above (it filters to zeros), otherwise the candidate with the smallest
/// sum of absolute filtered byte values, libpng's own heuristic (PNG spec §12.8) restricted to cheap
/// filters. On flat UI screens this is as small as libpng's all-filters choice at a fraction of its cost.
int fs_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_bytes,
                  int bytes_per_pixel, int level, int filters, int strategy,
                  uint8_t **out_data, size_t *out_size, char *message, size_t message_capacity);

/// Decodes a whole PNG (any colour type, bit depth, interlace) to 8-bit RGBA, non-premultiplied.
///
/// Rejects images wider than `max_width`, taller than `max_height` or with more than `max_pixels`
/// pixels with FS_PNG_TOO_LARGE before allocating them. On FS_PNG_OK `*out_pixels` is a malloc'd
/// buffer of `width * height * 4` bytes (rows top to bottom) that the caller frees with fs_png_free.
int fs_png_decode_rgba(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                       uint64_t max_pixels, uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                       char *message, size_t message_capacity);

/// Reads a whole PNG as fs_png_decode_rgba does (every chunk CRC, the whole zlib stream, every row of every
/// interlace pass) with the same limits, but keeps one row at a time: memory is one stored row (at most
/// `max_width * 8` bytes) plus libpng's and zlib's state, whatever the image's size. Sets the dimensions from the
/// header (also when the image is too large).
int fs_png_verify(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height, uint64_t max_pixels,
                  uint32_t *out_width, uint32_t *out_height, char *message, size_t message_capacity);

/// Frees a buffer returned by fs_png_encode or fs_png_decode_rgba.
void fs_png_free(void *buffer);

/// The libpng version this was built against, as "1.6.39".
const char *fs_png_version(void);

#endif
