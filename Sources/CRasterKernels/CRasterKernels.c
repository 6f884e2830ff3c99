// The per-pixel loops of ScreenRaster's Canvas; see include/CRasterKernels.h.
//
// min and max take their arguments in the order Swift's `min(_:_:)` and `max(_:_:)` compare them, and
// every expression keeps Swift's order of operations, so the pixels match the Swift loops they replace.
// The small helpers are always inlined: clang inlines those even at -O0, which a debug build uses.
#include "CRasterKernels.h"

#include <math.h>
#include <string.h>

static inline __attribute__((always_inline)) double min_d(double a, double b) { return b < a ? b : a; }
static inline __attribute__((always_inline)) double max_d(double a, double b) { return b >= a ? b : a; }
static inline __attribute__((always_inline)) long min_l(long a, long b) { return b < a ? b : a; }
static inline __attribute__((always_inline)) long max_l(long a, long b) { return b >= a ? b : a; }

/// `x / 255` rounded, for 0 <= x <= 255 * 255.
static inline __attribute__((always_inline)) long div255(long x) {
    long t = x + 128;
    return (t + (t >> 8)) >> 8;
}

/// Coverage in 0...1 (anything else clamped; NaN gives 0) as a byte.
static inline __attribute__((always_inline)) uint8_t coverage_byte(double coverage) {
    if (!(coverage > 0)) return 0;
    if (coverage >= 1) return 255;
    return (uint8_t)(coverage * 255 + 0.5);
}

/// A pixel coordinate from a computed one: NaN becomes 0, values are clamped to +-10,000,000.
static inline __attribute__((always_inline)) long pixel_coordinate(double value) {
    if (isnan(value)) return 0;
    return (long)max_d(-10000000.0, min_d(10000000.0, value));
}

/// Stores the 4-byte pixel `word` into `count` pixels: one store, then copies that double the filled
/// part (libc's memcpy is fast even when this file is built without optimization).
static void fill_pixels(uint8_t *p, size_t count, const uint8_t word[4]) {
    if (count == 0) return;
    memcpy(p, word, 4);
    size_t done = 1;
    while (done < count) {
        size_t chunk = done < count - done ? done : count - done;
        memcpy(p + done * 4, p, chunk * 4);
        done += chunk;
    }
}

void fs_raster_fill_words(uint32_t *pixels, size_t count, uint32_t word) {
    uint8_t bytes[4];
    memcpy(bytes, &word, 4);
    fill_pixels((uint8_t *)pixels, count, bytes);
}

/// Source-over blend of `color` at `coverage`/255 onto the one pixel at `p`.
static inline __attribute__((always_inline)) void blend_pixel(uint8_t *p, fs_raster_color color, uint8_t coverage) {
    long sa = div255((long)color.alpha * coverage);
    if (sa == 0) return;
    long ia = 255 - sa;
    p[0] = (uint8_t)div255((long)color.red * sa + p[0] * ia);
    p[1] = (uint8_t)div255((long)color.green * sa + p[1] * ia);
    p[2] = (uint8_t)div255((long)color.blue * sa + p[2] * ia);
    p[3] = (uint8_t)div255(sa * 255 + p[3] * ia);
}

void fs_raster_blend_span(uint8_t *pixels, size_t offset, size_t count, fs_raster_color color, uint8_t coverage) {
    long sa = div255((long)color.alpha * coverage);
    if (sa == 0) return;
    long sr = (long)color.red * sa, sg = (long)color.green * sa, sb = (long)color.blue * sa;
    long ia = 255 - sa;
    uint8_t *p = pixels + offset;
    if (ia == 0) {
        // Opaque: whole pixels (memory order R, G, B, A).
        uint8_t bytes[4] = {(uint8_t)div255(sr), (uint8_t)div255(sg), (uint8_t)div255(sb), 255};
        fill_pixels(p, count, bytes);
        return;
    }
    for (uint8_t *end = p + count * 4; p < end; p += 4) {
        p[0] = (uint8_t)div255(sr + p[0] * ia);
        p[1] = (uint8_t)div255(sg + p[1] * ia);
        p[2] = (uint8_t)div255(sb + p[2] * ia);
        p[3] = (uint8_t)div255(sa * 255 + p[3] * ia);
    }
}

void fs_raster_fill_box(uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_color color) {
    for (long y = box.y0; y < box.y1; y++) {
        fs_raster_blend_span(pixels, (size_t)((y * canvas_width + box.x0) * 4), (size_t)(box.x1 - box.x0), color, 255);
    }
}

/// Coverage (unclamped: <= 0 outside, >= 1 inside) of the pixel centred at (x, y) by `s`.
static inline __attribute__((always_inline)) double rounded_rect_coverage(fs_raster_rounded_rect s, double x, double y) {
    if (s.max_x <= s.min_x || s.max_y <= s.min_y) return 0;
    double straight = min_d(min_d(x - s.min_x, s.max_x - x), min_d(y - s.min_y, s.max_y - y)) + 0.5;
    if (!(s.radius > 0)) return straight;
    double cx, cy;
    if (x < s.min_x + s.radius) {
        cx = s.min_x + s.radius;
    } else if (x > s.max_x - s.radius) {
        cx = s.max_x - s.radius;
    } else {
        return straight;
    }
    if (y < s.min_y + s.radius) {
        cy = s.min_y + s.radius;
    } else if (y > s.max_y - s.radius) {
        cy = s.max_y - s.radius;
    } else {
        return straight;
    }
    double dx = x - cx, dy = y - cy;
    return s.radius - sqrt(dx * dx + dy * dy) + 0.5;
}

void fs_raster_fill_rounded_rect(
    uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_rounded_rect s, fs_raster_color color) {
    for (long py = box.y0; py < box.y1; py++) {
        double cy = (double)py + 0.5;
        int in_band = cy < s.min_y + s.radius || cy > s.max_y - s.radius;
        double vertical = min_d(cy - s.min_y, s.max_y - cy) + 0.5;
        double inner_left = in_band ? s.min_x + s.radius : s.min_x;
        double inner_right = in_band ? s.max_x - s.radius : s.max_x;
        long solid_start = max_l(box.x0, pixel_coordinate(ceil(inner_left)));
        long solid_end = min_l(box.x1, pixel_coordinate(floor(inner_right)));
        long row = py * canvas_width * 4;
        long px = box.x0;
        while (px < box.x1) {
            if (px == solid_start && solid_end > solid_start) {
                uint8_t c = coverage_byte(vertical);
                if (c > 0) fs_raster_blend_span(pixels, (size_t)(row + px * 4), (size_t)(solid_end - solid_start), color, c);
                px = solid_end;
                continue;
            }
            uint8_t c = coverage_byte(rounded_rect_coverage(s, (double)px + 0.5, cy));
            if (c > 0) blend_pixel(pixels + (row + px * 4), color, c);
            px += 1;
        }
    }
}

void fs_raster_stroke_rounded_rect(
    uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_rounded_rect outer,
    fs_raster_rounded_rect inner, int inner_is_empty, double line_width, long band, fs_raster_color color) {
    for (long py = box.y0; py < box.y1; py++) {
        double cy = (double)py + 0.5;
        int full_row = cy < outer.min_y + line_width + outer.radius + 1
            || cy > outer.max_y - line_width - outer.radius - 1;
        long px = box.x0;
        while (px < box.x1) {
            if (!full_row && px == box.x0 + band && box.x1 - band > px) {
                px = box.x1 - band;
                continue;
            }
            double cx = (double)px + 0.5;
            double inside = inner_is_empty ? 0 : max_d(0, min_d(1, rounded_rect_coverage(inner, cx, cy)));
            uint8_t c = coverage_byte(min_d(1, rounded_rect_coverage(outer, cx, cy)) - inside);
            if (c > 0) blend_pixel(pixels + ((py * canvas_width + px) * 4), color, c);
            px += 1;
        }
    }
}

void fs_raster_stroke_line(
    uint8_t *pixels, long canvas_width, fs_raster_box box, double sx, double sy, double ex, double ey,
    double half_width, fs_raster_color color) {
    double dx = ex - sx, dy = ey - sy;
    double length_squared = dx * dx + dy * dy;
    for (long py = box.y0; py < box.y1; py++) {
        double cy = (double)py + 0.5;
        for (long px = box.x0; px < box.x1; px++) {
            double cx = (double)px + 0.5;
            double t = length_squared > 0 ? ((cx - sx) * dx + (cy - sy) * dy) / length_squared : 0;
            t = max_d(0, min_d(1, t));
            double ox = cx - (sx + t * dx);
            double oy = cy - (sy + t * dy);
            uint8_t c = coverage_byte(half_width - sqrt(ox * ox + oy * oy) + 0.5);
            if (c > 0) blend_pixel(pixels + ((py * canvas_width + px) * 4), color, c);
        }
    }
}

void fs_raster_fill_convex_polygon(
    uint8_t *pixels, long canvas_width, fs_raster_box box, const fs_raster_edge *edges, size_t edge_count,
    fs_raster_color color) {
    for (long py = box.y0; py < box.y1; py++) {
        double cy = (double)py + 0.5;
        for (long px = box.x0; px < box.x1; px++) {
            double cx = (double)px + 0.5;
            double inside = INFINITY;
            for (size_t i = 0; i < edge_count; i++) {
                inside = min_d(inside, (cx - edges[i].ax) * edges[i].nx + (cy - edges[i].ay) * edges[i].ny);
            }
            uint8_t c = coverage_byte(inside + 0.5);
            if (c > 0) blend_pixel(pixels + ((py * canvas_width + px) * 4), color, c);
        }
    }
}

void fs_raster_blend_mask(
    uint8_t *pixels, long canvas_width, fs_raster_box box, const uint8_t *mask, long row_bytes, long mask_x,
    long mask_y, fs_raster_color color) {
    for (long py = box.y0; py < box.y1; py++) {
        const uint8_t *mask_row = mask + (py - mask_y) * row_bytes;
        for (long px = box.x0; px < box.x1; px++) {
            uint8_t c = mask_row[px - mask_x];
            if (c > 0) blend_pixel(pixels + ((py * canvas_width + px) * 4), color, c);
        }
    }
}
