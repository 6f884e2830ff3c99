// raster-bench: times render + PNG encode of a catalog screen (release build), for scripts/bench/raster.sh.
//
// Usage: raster-bench [--runs N] [--device NAME] [--rgb-out FILE] [--png-out FILE] [--sweep]
// Prints `key=value` lines on stdout: width, height, runs, render_ms, encode_ms, total_ms (medians), png_bytes.
// --rgb-out writes the rendered pixels as raw RGB (for Pillow to encode the same pixels);
// --sweep prints encode time and size for a grid of compression options on stderr.
import Foundation
import ScreenRaster
import SimulatedUI

func catalogScreen(_ device: Device) -> ScreenSnapshot {
    // The sample app's catalog: a three-column grid of 64 items under a navigation bar, scrolled by
    // 40 pt; rows just outside the viewport are materialized, as UICollectionView does.
    let names = [
        "Desk Lamp", "Oak Chair", "Linen Sofa", "Wall Clock", "Floor Rug", "Bookshelf", "Ceramic Vase", "Side Table",
        "Pendant Light", "Wool Blanket", "Mirror", "Coat Rack", "Planter", "Bar Stool", "Night Stand", "Throw Pillow",
    ]
    let top = device.safeAreaTop + 44
    let grid = CGRect(x: 0, y: top, width: device.width, height: device.height - top - device.safeAreaBottom)
    let spacing = 10.0
    let cellWidth = (device.width - 4 * spacing) / 3
    let cellHeight = cellWidth + 48
    var cells: [ElementSnapshot] = []
    for index in 0..<64 {
        let y = grid.minY + spacing + Double(index / 3) * (cellHeight + spacing) - 40
        guard y + cellHeight > grid.minY - cellHeight, y < grid.maxY + cellHeight else { continue }
        let x = spacing + Double(index % 3) * (cellWidth + spacing)
        let name = names[index % names.count]
        cells.append(
            ElementSnapshot(
                elementType: .cell, identifier: "catalog.item.\(index)", label: name,
                frame: CGRect(x: x, y: y, width: cellWidth, height: cellHeight),
                children: [
                    ElementSnapshot(
                        elementType: .image,
                        frame: CGRect(x: x + 6, y: y + 6, width: cellWidth - 12, height: cellWidth - 12)),
                    ElementSnapshot(
                        elementType: .staticText, label: name,
                        frame: CGRect(x: x + 6, y: y + cellWidth - 2, width: cellWidth - 12, height: 20),
                        style: .headline),
                    ElementSnapshot(
                        elementType: .staticText,
                        label: String(format: "$%d.%02d", 19 + index * 7 % 180, index * 37 % 100),
                        frame: CGRect(x: x + 6, y: y + cellWidth + 20, width: cellWidth - 12, height: 18),
                        style: .secondary),
                ]))
    }
    let window = ElementSnapshot(
        elementType: .window, frame: device.bounds,
        children: [
            ElementSnapshot(
                elementType: .navigationBar, label: "Catalog",
                frame: CGRect(x: 0, y: device.safeAreaTop, width: device.width, height: 44),
                children: [
                    ElementSnapshot(
                        elementType: .button, identifier: "nav.back", label: "Home",
                        frame: CGRect(x: 0, y: device.safeAreaTop, width: 100, height: 44))
                ]),
            ElementSnapshot(elementType: .collectionView, identifier: "catalog.grid", frame: grid, children: cells),
        ])
    return ScreenSnapshot(
        device: device,
        root: ElementSnapshot(elementType: .application, label: "Demo", frame: device.bounds, children: [window]))
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
    if sweep {
        let filters: [(String, PNGEncoder.Filters)] = [
            ("none", .none), ("up", .up), ("sub+up", [.sub, .up]), ("all", .all),
            ("row:none/sub/up", .perRowNoneSubUp), ("row:sub/up", .perRowSubUp), ("row:repeat-up", .perRowRepeatUp),
        ]
        for level in [3, 4, 5, 6] {
            for (filterName, filter) in filters {
                for strategy in [PNGEncoder.Strategy.default] {
                    let e = PNGEncoder(options: .init(compressionLevel: level, filters: filter, strategy: strategy))
                    var size = 0
                    let times = try (0..<9).map { _ in try milliseconds { size = try e.encode(canvas).count } }
                    FileHandle.standardError.write(
                        Data(
                            String(
                                format: "sweep level=%d filter=%@ strategy=%@ ms=%.1f bytes=%d\n", level, filterName,
                                "\(strategy)", median(times), size
                            ).utf8))
                }
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("raster-bench: \(error)\n".utf8))
    exit(1)
}
