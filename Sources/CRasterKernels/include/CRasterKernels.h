// CRasterKernels: the per-pixel loops of ScreenRaster's Canvas, in C.
//
// A failing test renders its screen inside the test process, which is a debug build. Swift pixel
// loops run about ten times slower unoptimized, and a package used as a versioned dependency may not
// force optimization with unsafe compiler flags; C loops at -O0 stay within a small factor of their
// optimized speed. Canvas computes every shape's parameters and clipped pixel box in Swift and calls
// one of these functions for the pixels. Only ScreenRaster imports this module.
//
// Pixels: premultiplied RGBA8, rows top to bottom, `canvas_width` pixels a row. Colours are straight
// (not premultiplied). Coordinates of shapes are in pixels, (0, 0) the top-left corner of the
// top-left pixel; a pixel's coverage is measured at its centre (x + 0.5, y + 0.5). Boxes are
// half-open: columns x0 ..< x1, rows y0 ..< y1, already clipped to the canvas.
#ifndef FAILSCOPE_CRASTERKERNELS_H
#define FAILSCOPE_CRASTERKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// A straight (not premultiplied) RGBA8 colour.
typedef struct {
    uint8_t red, green, blue, alpha;
} fs_raster_color;

/// A half-open pixel box: columns x0 ..< x1, rows y0 ..< y1.
typedef struct {
    long x0, y0, x1, y1;
} fs_raster_box;

/// A rounded rectangle in pixels; `radius` is already clamped to half the shorter side.
typedef struct {
    double min_x, min_y, max_x, max_y, radius;
} fs_raster_rounded_rect;

/// One edge of a convex polygon: a point on it and its unit normal pointing inside.
typedef struct {
    double ax, ay, nx, ny;
} fs_raster_edge;

/// Stores `word` (one pixel's four bytes) into `count` pixels from `pixels`.
void fs_raster_fill_words(uint32_t *pixels, size_t count, uint32_t word);

/// Source-over blend of `color` at `coverage`/255 onto `count` pixels starting at byte `offset`.
void fs_raster_blend_span(uint8_t *pixels, size_t offset, size_t count, fs_raster_color color, uint8_t coverage);

/// Blends `color` over every pixel of `box`.
void fs_raster_fill_box(uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_color color);

/// Fills `shape` over the pixels of `box`, anti-aliased.
void fs_raster_fill_rounded_rect(
    uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_rounded_rect shape, fs_raster_color color);

/// Strokes the band between `outer` and `inner` (`inner_is_empty` when the line fills the shape) over
/// the pixels of `box`; rows farther than `band` pixels from both sides skip their middle.
void fs_raster_stroke_rounded_rect(
    uint8_t *pixels, long canvas_width, fs_raster_box box, fs_raster_rounded_rect outer,
    fs_raster_rounded_rect inner, int inner_is_empty, double line_width, long band, fs_raster_color color);

/// A line from (sx, sy) to (ex, ey) with round caps, `half_width` pixels each side, over `box`.
void fs_raster_stroke_line(
    uint8_t *pixels, long canvas_width, fs_raster_box box, double sx, double sy, double ex, double ey,
    double half_width, fs_raster_color color);

/// The convex polygon bounded by `edges` (inward normals) over `box`, anti-aliased.
void fs_raster_fill_convex_polygon(
    uint8_t *pixels, long canvas_width, fs_raster_box box, const fs_raster_edge *edges, size_t edge_count,
    fs_raster_color color);

/// Blends `color` through an 8-bit coverage mask whose top-left pixel lands on (mask_x, mask_y), over
/// the pixels of `box` (inside the mask's rectangle); `row_bytes` is the mask's row stride.
void fs_raster_blend_mask(
    uint8_t *pixels, long canvas_width, fs_raster_box box, const uint8_t *mask, long row_bytes, long mask_x,
    long mask_y, fs_raster_color color);

#endif
