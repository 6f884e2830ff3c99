// The renderer's API speaks PNGCodec's types (`renderPNG` takes a `PNGEncoder` and throws `PNGError`), so
// importing ScreenRaster brings them.
@_exported import PNGCodec
