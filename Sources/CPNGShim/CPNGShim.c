// See include/CPNGShim.h. The setjmp/longjmp discipline follows the libpng manual, section
// "Setting up error handling": locals changed after setjmp and read after a longjmp are volatile.
#include "CPNGShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *message;
    size_t capacity;
    int code;
} fs_error_state;

static void fs_set_message(fs_error_state *state, const char *text) {
    if (state->message == NULL || state->capacity == 0) return;
    strncpy(state->message, text ? text : "unknown libpng error", state->capacity - 1);
    state->message[state->capacity - 1] = '\0';
}

static void fs_error_fn(png_structp png, png_const_charp text) {
    fs_error_state *state = (fs_error_state *)png_get_error_ptr(png);
    if (state != NULL) {
        if (state->code == FS_PNG_OK) state->code = FS_PNG_ERROR;
        fs_set_message(state, text);
    }
    png_longjmp(png, 1);
}

static void fs_warning_fn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;  // Warnings (e.g. a bad CRC on an ancillary chunk, which libpng then skips) are not errors.
}

// MARK: - Encoding

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    fs_error_state *error;
} fs_output;

static void fs_write_fn(png_structp png, png_bytep bytes, size_t length) {
    fs_output *out = (fs_output *)png_get_io_ptr(png);
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 64 * 1024;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (grown == NULL) {
            out->error->code = FS_PNG_NO_MEMORY;
            png_error(png, "out of memory growing the PNG output buffer");
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, length);
    out->size += length;
}

static void fs_flush_fn(png_structp png) { (void)png; }

/// Sum of |signed byte| of a row filtered with NONE, SUB or UP, reading only the colour bytes of
/// `bpp`-byte source pixels (3 of them); stops early once it exceeds `limit`.
static uint64_t fs_filter_cost(const uint8_t *row, const uint8_t *prev, uint32_t width, int bpp, int filter,
                               uint64_t limit) {
    uint64_t sum = 0;
    for (uint32_t x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * bpp;
        for (int c = 0; c < 3; c++) {
            uint8_t v = p[c];
            if (filter == PNG_FILTER_VALUE_SUB) v = (uint8_t)(v - (x > 0 ? p[c - bpp] : 0));
            else if (filter == PNG_FILTER_VALUE_UP) v = (uint8_t)(v - prev[(size_t)x * bpp + c]);
            sum += v < 128 ? v : 256 - v;
        }
        if (sum > limit) return sum;
    }
    return sum;
}

static int fs_rows_equal(const uint8_t *a, const uint8_t *b, uint32_t width, int bpp) {
    if (bpp == 3) return memcmp(a, b, (size_t)width * 3) == 0;
    for (uint32_t x = 0; x < width; x++) {
        if (memcmp(a + (size_t)x * 4, b + (size_t)x * 4, 3) != 0) return 0;
    }
    return 1;
}

/// The libpng filter mask for one row under a FS_PNG_FILTER_PER_ROW_* mode.
static int fs_choose_filter(int mode, const uint8_t *row, const uint8_t *prev, uint32_t width, int bpp) {
    if (prev == NULL) return mode == FS_PNG_FILTER_PER_ROW_REPEAT_UP ? PNG_FILTER_NONE : PNG_FILTER_SUB;
    if (fs_rows_equal(row, prev, width, bpp)) return PNG_FILTER_UP;
    if (mode == FS_PNG_FILTER_PER_ROW_REPEAT_UP) return PNG_FILTER_NONE;
    uint64_t best = fs_filter_cost(row, prev, width, bpp, PNG_FILTER_VALUE_SUB, UINT64_MAX);
    int choice = PNG_FILTER_SUB;
    uint64_t up = fs_filter_cost(row, prev, width, bpp, PNG_FILTER_VALUE_UP, best);
    if (up < best) {
        best = up;
        choice = PNG_FILTER_UP;
    }
    if (mode == FS_PNG_FILTER_PER_ROW_NONE_SUB_UP) {
        uint64_t none = fs_filter_cost(row, prev, width, bpp, PNG_FILTER_VALUE_NONE, best);
        if (none < best) choice = PNG_FILTER_NONE;
    }
    return choice;
}

int fs_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_bytes,
                  int bytes_per_pixel, int level, int filters, int strategy,
                  uint8_t **out_data, size_t *out_size, char *message, size_t message_capacity) {
    fs_error_state state = {message, message_capacity, FS_PNG_OK};
    fs_output out = {NULL, 0, 0, &state};
    *out_data = NULL;
    *out_size = 0;
    if (bytes_per_pixel != 3 && bytes_per_pixel != 4) {
        fs_set_message(&state, "bytes per pixel must be 3 or 4");
        return FS_PNG_ERROR;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, fs_error_fn, fs_warning_fn);
    if (png == NULL) {
        fs_set_message(&state, "png_create_write_struct failed");
        return FS_PNG_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        fs_set_message(&state, "png_create_info_struct failed");
        return FS_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(out.data);
        return state.code == FS_PNG_OK ? FS_PNG_ERROR : state.code;
    }
    rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (rows == NULL) {
        state.code = FS_PNG_NO_MEMORY;
        png_error(png, "out of memory for row pointers");
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * row_bytes);

    png_set_write_fn(png, &out, fs_write_fn, fs_flush_fn);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_compression_buffer_size(png, 256 * 1024);
    int per_row = filters & (FS_PNG_FILTER_PER_ROW_NONE_SUB_UP | FS_PNG_FILTER_PER_ROW_SUB_UP |
                             FS_PNG_FILTER_PER_ROW_REPEAT_UP);
    // Per-row choice: every filter enabled at the start so libpng keeps the previous row.
    png_set_filter(png, PNG_FILTER_TYPE_BASE, per_row ? PNG_ALL_FILTERS : (filters & PNG_ALL_FILTERS));
    png_write_info(png, info);
    if (bytes_per_pixel == 4) png_set_filler(png, 0, PNG_FILLER_AFTER);  // RGBX in, RGB out.
    if (per_row) {
        for (uint32_t y = 0; y < height; y++) {
            // libpng allocates its previous-row buffer at the first png_write_row, from the filters
            // enabled then: the first row keeps all of them (libpng picks its filter).
            if (y > 0) {
                png_set_filter(png, PNG_FILTER_TYPE_BASE,
                               fs_choose_filter(per_row, rows[y], rows[y - 1], width, bytes_per_pixel));
            }
            png_write_row(png, rows[y]);
        }
    } else {
        png_write_image(png, rows);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *out_data = out.data;
    *out_size = out.size;
    return FS_PNG_OK;
}

// MARK: - Decoding

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    fs_error_state *error;
} fs_input;

static void fs_read_fn(png_structp png, png_bytep bytes, size_t length) {
    fs_input *in = (fs_input *)png_get_io_ptr(png);
    if (length > in->size - in->offset) {
        in->error->code = FS_PNG_TRUNCATED;
        png_error(png, "the PNG data ends before the image does");
    }
    memcpy(bytes, in->data + in->offset, length);
    in->offset += length;
}

/* A read struct and its info struct reporting to `state`; false (with a message) when either cannot be made. */
static int fs_create_reader(fs_error_state *state, png_structp *png, png_infop *info) {
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, fs_error_fn, fs_warning_fn);
    if (*png == NULL) {
        fs_set_message(state, "png_create_read_struct failed");
        return 0;
    }
    *info = png_create_info_struct(*png);
    if (*info == NULL) {
        png_destroy_read_struct(png, NULL, NULL);
        fs_set_message(state, "png_create_info_struct failed");
        return 0;
    }
    return 1;
}

/* Reads the chunks before the image data within the limits (libpng's user limits for the sides, a chunk at most
 * 8 MiB, `max_pixels` checked here) and, when `out_width` and `out_height` are given, sets them from the header
 * first. On any error it longjmps to the caller's setjmp, so call it only after that setjmp. */
static void fs_read_header(png_structp png, png_infop info, fs_input *in, uint32_t max_width, uint32_t max_height,
                           uint64_t max_pixels, uint32_t *out_width, uint32_t *out_height) {
    png_set_read_fn(png, in, fs_read_fn);
    png_set_user_limits(png, max_width, max_height);
    png_set_chunk_malloc_max(png, 8 * 1024 * 1024);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if (out_width != NULL && out_height != NULL) {
        *out_width = width;
        *out_height = height;
    }
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        in->error->code = FS_PNG_TOO_LARGE;
        png_error(png, "the image has more pixels than allowed");
    }
}

int fs_png_decode_rgba(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height,
                       uint64_t max_pixels, uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                       char *message, size_t message_capacity) {
    fs_error_state state = {message, message_capacity, FS_PNG_OK};
    fs_input in = {data, size, 0, &state};
    *out_pixels = NULL;
    *out_width = 0;
    *out_height = 0;
    png_structp png = NULL;
    png_infop info = NULL;
    if (!fs_create_reader(&state, &png, &info)) return FS_PNG_NO_MEMORY;
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return state.code == FS_PNG_OK ? FS_PNG_ERROR : state.code;
    }
    fs_read_header(png, info, &in, max_width, max_height, max_pixels, NULL, NULL);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)width * 4) png_error(png, "unexpected row size after transformations");

    pixels = malloc(row_bytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) {
        state.code = FS_PNG_NO_MEMORY;
        png_error(png, "out of memory for the decoded image");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *out_pixels = pixels;
    *out_width = width;
    *out_height = height;
    return FS_PNG_OK;
}

int fs_png_verify(const uint8_t *data, size_t size, uint32_t max_width, uint32_t max_height, uint64_t max_pixels,
                  uint32_t *out_width, uint32_t *out_height, char *message, size_t message_capacity) {
    fs_error_state state = {message, message_capacity, FS_PNG_OK};
    fs_input in = {data, size, 0, &state};
    *out_width = 0;
    *out_height = 0;
    png_structp png = NULL;
    png_infop info = NULL;
    if (!fs_create_reader(&state, &png, &info)) return FS_PNG_NO_MEMORY;
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        return state.code == FS_PNG_OK ? FS_PNG_ERROR : state.code;
    }
    fs_read_header(png, info, &in, max_width, max_height, max_pixels, out_width, out_height);
    png_uint_32 height = png_get_image_height(png, info);
    /* No transformations: rows as stored (at most 8 bytes a pixel), one buffer reused for every row and pass. */
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    row = malloc(png_get_rowbytes(png, info));
    if (row == NULL) {
        state.code = FS_PNG_NO_MEMORY;
        png_error(png, "out of memory for a row");
    }
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return FS_PNG_OK;
}

void fs_png_free(void *buffer) { free(buffer); }

const char *fs_png_version(void) { return PNG_LIBPNG_VER_STRING; }
