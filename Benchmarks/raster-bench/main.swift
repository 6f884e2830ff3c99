// raster-bench: times render + PNG encode of the sample app's catalog screen (release build), for
// scripts/bench/raster.sh.
//
// Usage: raster-bench [--runs N] [--device NAME] [--rgb-out FILE] [--png-out FILE] [--sweep]
// Prints `key=value` lines on stdout: width, height, runs, render_ms, encode_ms, total_ms (medians), png_bytes,
// header_ms and decode_ms (validating the PNG by its header, and by decoding it whole).
// --rgb-out writes the rendered pixels as raw RGB (for Pillow to encode the same pixels);
// --sweep prints encode time and size for a grid of compression options on stderr.
import DemoAccessibility
import DemoApp
import Foundation
import ScreenRaster
import SimulatedUI

/// The sample app's catalog, loaded, on `device`.
func catalogScreen(_ device: Device) -> ScreenSnapshot {
    let app = SimulatedApp(DemoApp.self, device: device)
    app.launchArguments = [DemoApp.loggedInArgument]
    app.failureHandler = { message, _, _ in fail("DemoApp: \(message)") }
    app.launch()
    defer { app.terminate() }
    guard app.collectionViews[ID.Catalog.grid].waitForExistence(timeout: 10) else { fail("the catalog did not load") }
    return app.snapshot()
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("raster-bench: \(message)\n".utf8))
    exit(64)
}

var runs = 15
var device = Device.iPhone15ProMax
var rgbOut: String?
var pngOut: String?
var sweep = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs":
        guard let n = arguments.popFirst().flatMap(Int.init), n > 0 else { fail("--runs needs a positive number") }
        runs = n
    case "--device":
        guard let name = arguments.popFirst(), let named = Device.named(name) else {
            fail("--device needs a known device")
        }
        device = named
    case "--rgb-out":
        guard let file = arguments.popFirst() else { fail("--rgb-out needs a file") }
        rgbOut = file
    case "--png-out":
        guard let file = arguments.popFirst() else { fail("--png-out needs a file") }
        pngOut = file
    case "--sweep": sweep = true
    default: fail("unknown argument \(argument)")
    }
}

do {
    let renderer = try ScreenRenderer()
    let screen = catalogScreen(device)
    let encoder = PNGEncoder()
    _ = try renderer.renderPNG(screen)  // warm up: glyph cache, page faults
    var render: [Double] = []
    var encode: [Double] = []
    var total: [Double] = []
    var png = Data()
    var canvas = renderer.render(screen)
    for _ in 0..<runs {
        var r = 0.0
        var e = 0.0
        let t = try milliseconds {
            r = milliseconds { canvas = renderer.render(screen) }
            e = try milliseconds { png = try encoder.encode(canvas) }
        }
        render.append(r)
        encode.append(e)
        total.append(t)
    }
    if let rgbOut { try Data(canvas.rgbBytes()).write(to: URL(fileURLWithPath: rgbOut)) }
    if let pngOut { try png.write(to: URL(fileURLWithPath: pngOut)) }
    print("width=\(canvas.width)")
    print("height=\(canvas.height)")
    print("runs=\(runs)")
    print(String(format: "render_ms=%.2f", median(render)))
    print(String(format: "encode_ms=%.2f", median(encode)))
    print(String(format: "total_ms=%.2f", median(total)))
    print("png_bytes=\(png.count)")
    // What validating an upload costs: the header alone, and a full decode (CRCs, zlib stream, pixels).
    let decoder = PNGDecoder()
    var decodedWidth = 0
    let headerTimes = try (0..<runs).map { _ in try milliseconds { decodedWidth = try decoder.validate(png).width } }
    let decodeTimes = try (0..<runs).map { _ in try milliseconds { decodedWidth = try decoder.decode(png).width } }
    precondition(decodedWidth == canvas.width)
    print(String(format: "header_ms=%.3f", median(headerTimes)))
    print(String(format: "decode_ms=%.2f", median(decodeTimes)))
    if sweep {
        let filters: [(String, PNGEncoder.Filters)] = [
            ("none", .none), ("sub+up", [.sub, .up]), ("all", .all), ("row:sub/up", .perRowSubUp),
            ("row:repeat-up", .perRowRepeatUp),
        ]
        var configs: [(name: String, options: PNGEncoder.Options)] = []
        for level in [3, 4, 5, 6, 7] {
            for (filterName, filter) in filters {
                configs.append(
                    (
                        "level=\(level) filter=\(filterName)",
                        .init(compressionLevel: level, filters: filter, strategy: .default)
                    ))
            }
        }
        // Rounds interleave the configurations and each keeps its fastest run: the least disturbed by
        // other processes on a shared machine.
        var best = [Double](repeating: .infinity, count: configs.count)
        var sizes = [Int](repeating: 0, count: configs.count)
        for _ in 0..<9 {
            for (i, config) in configs.enumerated() {
                let encoder = PNGEncoder(options: config.options)
                best[i] = min(best[i], try milliseconds { sizes[i] = try encoder.encode(canvas).count })
            }
        }
        for (i, config) in configs.enumerated() {
            FileHandle.standardError.write(
                Data(String(format: "sweep %@ ms=%.1f bytes=%d\n", config.name, best[i], sizes[i]).utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("raster-bench: \(error)\n".utf8))
    exit(1)
}
