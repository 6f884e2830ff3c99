import Foundation
import PNGCodec

extension PNGEncoder {
    /// Encodes a canvas (its RGB channels; see the type's note on alpha).
    /// - Throws: `PNGError` when libpng fails (out of memory, an internal error).
    public func encode(_ canvas: Canvas) throws(PNGError) -> Data {
        try canvas.withUnsafePixels { (buffer) throws(PNGError) -> Data in
            try self.encode(
                pixels: buffer, width: canvas.width, height: canvas.height, rowBytes: canvas.width * 4,
                bytesPerPixel: 4)
        }
    }
}
