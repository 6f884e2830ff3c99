import Foundation
import XCTest

@testable import ScreenRaster

final class CanvasTests: XCTestCase {
    func testNewCanvasIsFilledWithTheBackground() {
        let canvas = Canvas(width: 7, height: 5, background: RGBAColor(hex: 0x336699))
        XCTAssertEqual(canvas.pixels.count, 7 * 5 * 4)
        XCTAssertEqual(canvas.pixel(x: 0, y: 0), RGBAColor(hex: 0x336699))
        XCTAssertEqual(canvas.pixel(x: 6, y: 4), RGBAColor(hex: 0x336699))
    }

    func testFillCoversExactlyThePixelRectAndRespectsTheClip() {
        var canvas = Canvas(width: 20, height: 20, background: .white)
        canvas.pushClip(PixelRect(x: 0, y: 0, width: 10, height: 20))
        canvas.fill(PixelRect(x: 5, y: 5, width: 10, height: 3), color: .black)
        canvas.popClip()
        XCTAssertEqual(canvas.pixel(x: 5, y: 5), .black)
        XCTAssertEqual(canvas.pixel(x: 9, y: 7), .black)
        XCTAssertEqual(canvas.pixel(x: 10, y: 6), .white, "clipped away")
        XCTAssertEqual(canvas.pixel(x: 4, y: 6), .white)
        XCTAssertEqual(canvas.pixel(x: 6, y: 8), .white)
        XCTAssertEqual(canvas.clipRect, canvas.bounds)
    }

    func testNestedClipsIntersect() {
        var canvas = Canvas(width: 10, height: 10, background: .white)
        canvas.pushClip(PixelRect(x: 2, y: 2, width: 6, height: 6))
        canvas.pushClip(PixelRect(x: 5, y: 0, width: 5, height: 10))
        XCTAssertEqual(canvas.clipRect, PixelRect(x: 5, y: 2, width: 3, height: 6))
        canvas.fill(canvas.bounds, color: .black)
        canvas.popClip()
        canvas.popClip()
        XCTAssertEqual(canvas.pixel(x: 5, y: 2), .black)
        XCTAssertEqual(canvas.pixel(x: 4, y: 4), .white)
        XCTAssertEqual(canvas.pixel(x: 8, y: 4), .white)
    }

    func testHalfTransparentFillBlendsSourceOver() {
        var canvas = Canvas(width: 2, height: 2, background: .white)
        canvas.fill(canvas.bounds, color: RGBAColor(hex: 0x000000, opacity: 0.5))
        let p = canvas.pixel(x: 1, y: 1)
        XCTAssertEqual(p.alpha, 255)
        XCTAssertEqual(Int(p.red), 127, accuracy: 1)
        XCTAssertEqual(p.red, p.blue)
    }

    func testCanvasStoresPremultipliedAlpha() {
        var canvas = Canvas(width: 1, height: 1)
        canvas.fill(canvas.bounds, color: RGBAColor(red: 200, green: 100, blue: 0, alpha: 128))
        XCTAssertEqual(Array(canvas.pixels), [100, 50, 0, 128])
        let straight = canvas.pixel(x: 0, y: 0)
        XCTAssertEqual(Int(straight.red), 200, accuracy: 1)
        XCTAssertEqual(straight.alpha, 128)
    }

    func testRoundedRectLeavesCornersAndFillsTheMiddle() {
        var canvas = Canvas(width: 40, height: 40, background: .white)
        canvas.fillRoundedRect(CGRect(x: 0, y: 0, width: 40, height: 40), radius: 12, color: .black)
        XCTAssertEqual(canvas.pixel(x: 0, y: 0), .white, "corner outside the arc")
        XCTAssertEqual(canvas.pixel(x: 20, y: 20), .black)
        XCTAssertEqual(canvas.pixel(x: 20, y: 0), .black, "straight edge on a pixel boundary is fully covered")
        XCTAssertEqual(canvas.pixel(x: 0, y: 20), .black)
        let edge = canvas.pixel(x: 3, y: 3)  // on the arc: anti-aliased
        XCTAssertTrue(edge.red > 0 && edge.red < 255, "arc pixel \(edge) should be partly covered")
    }

    func testStrokeDrawsOnlyTheOutline() {
        var canvas = Canvas(width: 30, height: 30, background: .white)
        canvas.strokeRoundedRect(CGRect(x: 0, y: 0, width: 30, height: 30), radius: 4, lineWidth: 2, color: .black)
        XCTAssertEqual(canvas.pixel(x: 15, y: 0), .black)
        XCTAssertEqual(canvas.pixel(x: 15, y: 1), .black)
        XCTAssertEqual(canvas.pixel(x: 15, y: 2), .white)
        XCTAssertEqual(canvas.pixel(x: 29, y: 15), .black)
        XCTAssertEqual(canvas.pixel(x: 15, y: 15), .white)
    }

    func testCircleAndLineAndPolygonCoverTheirCentres() {
        var canvas = Canvas(width: 30, height: 30, background: .white)
        canvas.fillCircle(center: CGPoint(x: 10, y: 10), radius: 5, color: .black)
        canvas.strokeLine(from: CGPoint(x: 0, y: 25), to: CGPoint(x: 30, y: 25), lineWidth: 2, color: .black)
        canvas.fillConvexPolygon(
            [CGPoint(x: 20, y: 2), CGPoint(x: 28, y: 2), CGPoint(x: 24, y: 12)], color: .black)
        XCTAssertEqual(canvas.pixel(x: 10, y: 10), .black)
        XCTAssertEqual(canvas.pixel(x: 3, y: 3), .white)
        XCTAssertEqual(canvas.pixel(x: 15, y: 24), .black)
        XCTAssertEqual(canvas.pixel(x: 15, y: 22), .white)
        XCTAssertEqual(canvas.pixel(x: 24, y: 4), .black)
        XCTAssertEqual(canvas.pixel(x: 20, y: 11), .white)
    }

    func testMaskBlendIsClipped() {
        var canvas = Canvas(width: 4, height: 4, background: .white)
        canvas.pushClip(PixelRect(x: 0, y: 0, width: 2, height: 4))
        canvas.blend(mask: [255, 255, 255, 128], maskWidth: 2, maskHeight: 2, x: 1, y: 1, color: .black)
        canvas.popClip()
        XCTAssertEqual(canvas.pixel(x: 1, y: 1), .black)
        XCTAssertEqual(canvas.pixel(x: 2, y: 1), .white, "outside the clip")
        XCTAssertEqual(canvas.pixel(x: 1, y: 2), .black)
    }

    func testPointFramesMapToRoundedPixelEdges() {
        XCTAssertEqual(
            PixelRect(frame: CGRect(x: 16, y: 300, width: 361, height: 50), scale: 3),
            PixelRect(x: 48, y: 900, width: 1083, height: 150))
        // Edges are rounded separately, so adjacent frames share an edge without a gap or overlap.
        XCTAssertEqual(
            PixelRect(frame: CGRect(x: 10.2, y: 0.5, width: 10.2, height: 1), scale: 2),
            PixelRect(x: 20, y: 1, width: 21, height: 2))
    }

    func testRGBBytesDropAlpha() {
        let canvas = Canvas(width: 2, height: 1, background: RGBAColor(hex: 0x102030))
        XCTAssertEqual(canvas.rgbBytes(), [0x10, 0x20, 0x30, 0x10, 0x20, 0x30])
    }
}
