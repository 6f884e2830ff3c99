import DemoAccessibility
import Foundation
import SimulatedUI
import XCTest

@testable import ScreenRaster

final class ScreenRendererTests: XCTestCase {
    /// One renderer for the whole suite (its glyph cache is shared, as in the reporter).
    static let shared = Result { try ScreenRenderer() }

    private func render(_ screen: ScreenSnapshot) throws -> Canvas {
        try ScreenRendererTests.shared.get().render(screen)
    }

    private func element(_ identifier: String, in screen: ScreenSnapshot) throws -> ElementSnapshot {
        try XCTUnwrap(screen.root.allElements.first { $0.identifier == identifier }, "no element \(identifier)")
    }

    private func pixels(of identifier: String, in screen: ScreenSnapshot) throws -> PixelRect {
        ScreenRenderer.pixelRect(for: try element(identifier, in: screen).frame, on: screen.device)
    }

    /// How many pixels of `rect` (clipped to the canvas) satisfy `test`.
    private func count(_ canvas: Canvas, in rect: PixelRect, where test: (RGBAColor) -> Bool) -> Int {
        let r = rect.intersection(canvas.bounds)
        var n = 0
        for y in r.minY..<r.maxY {
            for x in r.minX..<r.maxX where test(canvas.pixel(x: x, y: y)) { n += 1 }
        }
        return n
    }

    private func near(_ color: RGBAColor, _ tolerance: Int = 12) -> (RGBAColor) -> Bool {
        { $0.distance(to: color) <= tolerance }
    }

    // MARK: Size and mapping

    func testCanvasIsTheDeviceScreenInPixels() throws {
        XCTAssertEqual(try render(SampleScreens.login(.iPhone15)).width, 1179)
        XCTAssertEqual(try render(SampleScreens.login(.iPhone15)).height, 2556)
        let max = try render(SampleScreens.catalog(.iPhone15ProMax))
        XCTAssertEqual([max.width, max.height], [1290, 2796])
        XCTAssertEqual(
            ScreenRenderer.pixelRect(for: CGRect(x: 16, y: 300, width: 361, height: 50), on: .iPhone15),
            PixelRect(x: 48, y: 900, width: 1083, height: 150))
    }

    // MARK: Login

    func testBackgroundIsWhiteAndTheStatusBarShowsTheTime() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        XCTAssertEqual(canvas.pixel(x: 20, y: 1300), IOSPalette.background)
        XCTAssertEqual(canvas.pixel(x: 740, y: 600), IOSPalette.background)
        // "9:41" is centred in the 20 pt status bar of the iPhone SE.
        let time = PixelRect(x: 330, y: 0, width: 90, height: 40)
        XCTAssertGreaterThan(count(canvas, in: time, where: { $0.red < 60 }), 60)
    }

    func testFilledButtonCoversExactlyItsFrame() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        let button = try pixels(of: "login.submit", in: screen)
        let midY = button.minY + button.height / 2
        XCTAssertEqual(canvas.pixel(x: button.minX, y: midY), IOSPalette.tint, "left edge pixel is inside")
        XCTAssertEqual(canvas.pixel(x: button.maxX - 1, y: midY), IOSPalette.tint, "right edge pixel is inside")
        XCTAssertEqual(canvas.pixel(x: button.minX - 1, y: midY), IOSPalette.background)
        XCTAssertEqual(canvas.pixel(x: button.maxX, y: midY), IOSPalette.background)
        XCTAssertEqual(canvas.pixel(x: button.minX + 40, y: button.minY), IOSPalette.tint)
        XCTAssertEqual(canvas.pixel(x: button.minX + 40, y: button.minY - 1), IOSPalette.background)
        XCTAssertNotEqual(canvas.pixel(x: button.minX, y: button.minY), IOSPalette.tint, "corners are rounded")
        // Its title is white text in the middle.
        XCTAssertGreaterThan(count(canvas, in: button.insetBy(dx: 200, dy: 30), where: near(.white)), 100)
    }

    func testLabelInkStaysInsideItsFrame() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        let label = try pixels(of: "login.error", in: screen)
        let red = near(IOSPalette.red, 40)
        XCTAssertGreaterThan(count(canvas, in: label, where: red), 500, "error text drawn in red")
        // Two lines: the lower half of the frame has red ink too.
        let lower = PixelRect(
            x: label.minX, y: label.minY + label.height / 2, width: label.width, height: label.height / 2)
        XCTAssertGreaterThan(count(canvas, in: lower, where: red), 100, "wrapped onto a second line")
        let around = label.insetBy(dx: -16, dy: -16)
        let ring = count(canvas, in: around, where: red) - count(canvas, in: label, where: red)
        XCTAssertEqual(ring, 0, "no red ink in the 8 pt around the label")
    }

    func testFocusedFieldHasARingAndOthersAGreyBorder() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        let email = try pixels(of: "login.email", in: screen)
        let password = try pixels(of: "login.password", in: screen)
        for (field, expectTint) in [(email, true), (password, false)] {
            let midY = field.minY + field.height / 2
            let edge = canvas.pixel(x: field.minX + 1, y: midY)
            let inside = canvas.pixel(x: field.minX + 6, y: midY)
            if expectTint {
                XCTAssertEqual(edge, IOSPalette.tint, "focused field's ring")
                XCTAssertEqual(inside, IOSPalette.background, "ring is 2 pt = 4 px wide")
            } else {
                XCTAssertNotEqual(edge, IOSPalette.tint)
                XCTAssertEqual(canvas.pixel(x: field.minX, y: midY), IOSPalette.fieldBorder)
            }
        }
        // The caret sits after the typed text of the focused field only.
        XCTAssertGreaterThan(count(canvas, in: email.insetBy(dx: 20, dy: 20), where: near(IOSPalette.tint)), 20)
        XCTAssertEqual(count(canvas, in: password.insetBy(dx: 8, dy: 8), where: near(IOSPalette.tint, 60)), 0)
    }

    func testSecureFieldShowsDotsAndEmptyFieldItsPlaceholder() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        let password = try pixels(of: "login.password", in: screen)
        let midY = password.minY + password.height / 2
        // Eight 8 pt dots, 11 pt apart, from 12 pt in: centre of the first and of the eighth are black.
        XCTAssertEqual(canvas.pixel(x: password.minX + 32, y: midY), .black)
        XCTAssertEqual(canvas.pixel(x: password.minX + 32 + 7 * 22, y: midY), .black)
        XCTAssertEqual(canvas.pixel(x: password.minX + 32 + 8 * 22, y: midY), .white, "only eight dots")
        let code = try pixels(of: "login.code", in: screen)
        XCTAssertGreaterThan(
            count(canvas, in: code.insetBy(dx: 8, dy: 8), where: near(IOSPalette.placeholder, 30)), 100)
        XCTAssertEqual(count(canvas, in: code.insetBy(dx: 8, dy: 8), where: { $0.red < 100 }), 0, "no dark text")
    }

    func testDisabledButtonIsGrey() throws {
        let screen = SampleScreens.login()
        let canvas = try render(screen)
        let sso = try pixels(of: "login.sso", in: screen)
        XCTAssertEqual(canvas.pixel(x: sso.minX + 30, y: sso.minY + sso.height / 2), IOSPalette.fill)
        XCTAssertEqual(count(canvas, in: sso, where: near(IOSPalette.tint, 60)), 0)
    }

    // MARK: Alerts

    func testAlertDimsTheScreenBehindItsBox() throws {
        let screen = SampleScreens.loginAlert()
        let canvas = try render(screen)
        let dimmedWhite = IOSPalette.dimming.composited(over: .white)
        XCTAssertEqual(canvas.pixel(x: 20, y: 1300).distance(to: dimmedWhite), 0)
        XCTAssertEqual(canvas.pixel(x: 20, y: 1300).red, 204)
        // The status bar and navigation bar are dimmed too.
        XCTAssertEqual(canvas.pixel(x: 200, y: 100), IOSPalette.dimming.composited(over: IOSPalette.bar))
        let box = try pixels(of: "alert.loginFailed", in: screen)
        XCTAssertEqual(canvas.pixel(x: box.minX + 20, y: box.minY + box.height / 2), IOSPalette.alertBackground)
        // Its buttons are tinted text over the box, not dimmed.
        let retry = try pixels(of: "alert.retry", in: screen)
        XCTAssertGreaterThan(count(canvas, in: retry, where: near(IOSPalette.tint)), 50)
        // The focused field underneath is dimmed: no pure tint left outside the alert.
        let email = try pixels(of: "login.email", in: screen)
        XCTAssertEqual(
            canvas.pixel(x: email.minX + 1, y: email.minY + 40), IOSPalette.dimming.composited(over: IOSPalette.tint))
    }

    // MARK: Scroll views

    func testCellsAreClippedToTheViewport() throws {
        let device = Device.iPhone15ProMax
        // Not scrolled: the fourth row starts at 910 pt, below the viewport (which ends at 898 pt, above
        // the home indicator) but still on the 932 pt screen.
        let screen = SampleScreens.catalog(device, scroll: 0)
        let canvas = try render(screen)
        let grid = try pixels(of: "catalog.grid", in: screen)
        let below = try pixels(of: "catalog.item.6", in: screen)
        XCTAssertGreaterThanOrEqual(below.minY, grid.maxY)
        XCTAssertLessThan(below.minY, canvas.height, "the cell lies on the screen")
        // Nothing of it is drawn: its grey background would show between the viewport and the screen's edge.
        let strip = PixelRect(x: below.minX, y: below.minY, width: below.width, height: canvas.height - below.minY)
        XCTAssertEqual(count(canvas, in: strip, where: near(IOSPalette.groupedBackground, 2)), 0)
        XCTAssertEqual(count(canvas, in: strip, where: near(IOSPalette.fill, 2)), 0)

        // Scrolled by 100 pt: the fourth row straddles the viewport's bottom edge, drawn above it and cut at it.
        let scrolled = SampleScreens.catalog(device, scroll: 100)
        let scrolledCanvas = try render(scrolled)
        let straddling = try pixels(of: "catalog.item.6.image", in: scrolled)
        XCTAssertTrue(straddling.minY < grid.maxY && straddling.maxY > grid.maxY)
        XCTAssertEqual(scrolledCanvas.pixel(x: straddling.minX + 30, y: grid.maxY - 1), IOSPalette.fill, "inside")
        XCTAssertEqual(scrolledCanvas.pixel(x: straddling.minX + 30, y: grid.maxY), IOSPalette.background, "cut")
        // The first row, scrolled partly above the viewport, is hidden by the navigation bar above it.
        let first = try pixels(of: "catalog.item.0", in: scrolled)
        XCTAssertLessThan(first.minY, grid.minY)
        XCTAssertEqual(scrolledCanvas.pixel(x: first.minX + 30, y: grid.minY - 10), IOSPalette.bar)
    }

    func testScrollViewClipsChildrenInTheMiddleOfTheScreen() throws {
        let device = Device.iPhoneSE3
        let viewport = CGRect(x: 0, y: 200, width: 375, height: 100)
        let inside = ElementSnapshot(
            elementType: .button, identifier: "inside", label: "In",
            frame: CGRect(x: 20, y: 220, width: 100, height: 40),
            style: .filled)
        let straddling = ElementSnapshot(
            elementType: .button, identifier: "straddling", label: "Half",
            frame: CGRect(x: 140, y: 280, width: 100, height: 40), style: .filled)
        let outside = ElementSnapshot(
            elementType: .button, identifier: "outside", label: "Out",
            frame: CGRect(x: 20, y: 320, width: 100, height: 40),
            isHittable: false, style: .filled)
        let screen = ScreenSnapshot(
            device: device,
            root: SampleScreens.root(
                device,
                [
                    ElementSnapshot(
                        elementType: .scrollView, identifier: "scroll", frame: viewport,
                        children: [inside, straddling, outside])
                ]))
        let canvas = try render(screen)
        XCTAssertEqual(canvas.pixel(x: 60, y: 480), IOSPalette.tint)
        XCTAssertEqual(canvas.pixel(x: 300, y: 590), IOSPalette.tint, "the half inside the viewport is drawn")
        XCTAssertEqual(canvas.pixel(x: 300, y: 610), IOSPalette.background, "the half outside is not")
        XCTAssertEqual(
            count(canvas, in: PixelRect(x: 0, y: 600, width: 750, height: 200), where: near(IOSPalette.tint, 60)), 0)
    }

    // MARK: Settings

    func testSwitchesShowOnAndOff() throws {
        let screen = SampleScreens.settings()
        let canvas = try render(screen)
        func trackColor(_ id: String) throws -> RGBAColor {
            let r = try pixels(of: id, in: screen)
            // 4 pt inside the track's trailing end (switch rows put the 51 pt track at the trailing edge).
            return canvas.pixel(x: r.maxX - 8, y: r.minY + r.height / 2)
        }
        func leadingTrackColor(_ id: String) throws -> RGBAColor {
            let r = try pixels(of: id, in: screen)
            return canvas.pixel(x: r.maxX - 51 * 2 + 8, y: r.minY + r.height / 2)
        }
        XCTAssertEqual(
            try leadingTrackColor("settings.notifications"), IOSPalette.green, "on: green, knob on the right")
        XCTAssertEqual(try trackColor("settings.notifications"), .white, "on: the knob at the trailing end")
        XCTAssertEqual(try trackColor("settings.sounds"), IOSPalette.switchOff, "off: grey, knob on the left")
        XCTAssertEqual(try leadingTrackColor("settings.sounds"), .white)
        let disabled = try leadingTrackColor("settings.autoUpdate")
        XCTAssertTrue(disabled.green > 200 && disabled.red > 150, "disabled switch is faded: \(disabled)")
    }

    func testPickerHighlightsTheSelectedRowAndDimsNeighbours() throws {
        let screen = SampleScreens.settings()
        let canvas = try render(screen)
        let wheel = try pixels(of: "settings.accent.wheel", in: screen)
        let rowHeight = 68  // 34 pt
        let midY = wheel.minY + wheel.height / 2
        XCTAssertEqual(canvas.pixel(x: wheel.minX + 24, y: midY), IOSPalette.pickerSelection)
        let selected = PixelRect(x: wheel.minX, y: midY - rowHeight / 2, width: wheel.width, height: rowHeight)
        let above = PixelRect(x: wheel.minX, y: midY - rowHeight * 3 / 2, width: wheel.width, height: rowHeight)
        func darkest(_ r: PixelRect) -> Int {
            var least = 255
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX { least = min(least, Int(canvas.pixel(x: x, y: y).red)) }
            }
            return least
        }
        XCTAssertLessThan(darkest(selected), 30, "selected row in black")
        XCTAssertGreaterThan(darkest(above), 80, "neighbour dimmed")
        XCTAssertLessThan(darkest(above), 200, "neighbour still shown")
    }

    // MARK: Text

    func testLongTextIsTruncatedWithAnEllipsis() throws {
        let renderer = try ScreenRendererTests.shared.get()
        _ = renderer.render(SampleScreens.login())  // warm the cache through the public path
        let cache = try GlyphCache(fonts: FontSet.locate())
        let text = TextRenderer(cache: cache)
        let font = FontSpec(weight: .regular, pixelSize: 32)
        let one = text.lines("Wrong email or password. Check both and try again.", font, maxWidth: 400, maxLines: 1)
        XCTAssertEqual(one.count, 1)
        XCTAssertTrue(one[0].hasSuffix("…"), one[0])
        XCTAssertLessThanOrEqual(text.width(of: one[0], font), 400)
        let two = text.lines("Wrong email or password. Check both and try again.", font, maxWidth: 400, maxLines: 5)
        XCTAssertGreaterThan(two.count, 1)
        XCTAssertFalse(two.joined().contains("…"))
        XCTAssertEqual(two.joined(separator: " "), "Wrong email or password. Check both and try again.")
        XCTAssertEqual(text.lines("Short", font, maxWidth: 400, maxLines: 1), ["Short"])
        XCTAssertEqual(text.lines("a\nb", font, maxWidth: 400, maxLines: 3), ["a", "b"])
        XCTAssertEqual(text.lines("one two", font, maxWidth: 4000, maxLines: 2), ["one two"])
        XCTAssertEqual(text.lines("  ", font, maxWidth: 400, maxLines: 2), [""])
        // A huge label costs what its visible part costs (no quadratic re-measuring).
        let huge = String(repeating: "Wrong email or password. ", count: 4000)
        let start = Date()
        let cut = text.lines(huge, font, maxWidth: 400, maxLines: 3)
        XCTAssertEqual(cut.count, 3)
        XCTAssertTrue(cut[2].hasSuffix("…"))
        XCTAssertLessThan(
            Date().timeIntervalSince(start), 5, "100,000 characters: milliseconds, where quadratic work took minutes")
    }

    func testASingleLineSlightlyTooWideShrinksInsteadOfTruncating() throws {
        let cache = try GlyphCache(fonts: FontSet.locate())
        var painter = ScreenPainter(device: .iPhoneSE3, text: TextRenderer(cache: cache))
        let style = ScreenPainter.textStyle(for: .headline)
        let natural = painter.textWidth("$19.99", style)
        let roomy = painter.drawText("$19.99", style, in: CGRect(x: 0, y: 100, width: natural + 2, height: 22))
        XCTAssertEqual(roomy.lines, ["$19.99"])
        let tight = painter.drawText("$19.99", style, in: CGRect(x: 0, y: 200, width: natural * 0.9, height: 22))
        XCTAssertEqual(tight.lines, ["$19.99"], "shrunk, not truncated")
        XCTAssertLessThan(tight.pixelSize, roomy.pixelSize)
        XCTAssertLessThanOrEqual(tight.width, natural * 0.9 * 2)
        let far = painter.drawText("$19.99", style, in: CGRect(x: 0, y: 300, width: natural * 0.6, height: 22))
        XCTAssertEqual(far.pixelSize, roomy.pixelSize, "beyond the minimum scale: truncated at full size")
        XCTAssertTrue(far.lines.first?.hasSuffix("…") == true, "\(far.lines)")
    }

    func testLayoutAdvanceTablesAreTheFontsAdvances() throws {
        // At 256 pixels an em, FreeType's advance is the design advance / 8 rounded to a whole pixel (hinting).
        let cache = try GlyphCache(fonts: FontSet.locate())
        let pixelsPerEm = 256
        for (weight, table) in [(FontWeight.regular, TextMetrics.regularAdvances), (.bold, TextMetrics.boldAdvances)] {
            XCTAssertEqual(table.count, 0x7E - 0x20 + 1)
            let font = FontSpec(weight: weight, pixelSize: pixelsPerEm)
            for (offset, advance) in table.enumerated() {
                let scalar = Unicode.Scalar(TextMetrics.firstTabulated + UInt32(offset))!
                let design = Double(advance) * Double(pixelsPerEm) / Double(TextMetrics.unitsPerEm)
                XCTAssertEqual(cache.glyph(scalar, font).advance, design, accuracy: 0.5, "\(weight) '\(scalar)'")
            }
        }
    }

    func testAShortTitleOfWideLettersGetsTheFrameItsGlyphsNeed() throws {
        // An average width per character gave "Mug" in a large title a frame its glyphs overflowed ("M…").
        let cache = try GlyphCache(fonts: FontSet.locate())
        var painter = ScreenPainter(device: .iPhoneSE3, text: TextRenderer(cache: cache))
        for (text, style) in [("Mug", ElementStyle.largeTitle), ("WWW", .headline), ("iii", .body), ("MW", .caption)] {
            let width = TextMetrics.width(
                of: text, pointSize: style.pointSize, bold: style.isBold, scale: painter.scale
            ).rounded(.up)
            let drawn = painter.drawText(
                text, ScreenPainter.textStyle(for: style), in: CGRect(x: 0, y: 100, width: width, height: 60))
            XCTAssertEqual(drawn.lines, [text], "\(style)")
            XCTAssertEqual(drawn.width / painter.scale, width, accuracy: 1, "\(text) at \(style)")
        }
    }

    func testGlyphCacheStaysBounded() throws {
        let cache = try GlyphCache(fonts: FontSet.locate())
        let font = FontSpec(weight: .regular, pixelSize: 12)
        for value in 0x4E00..<(0x4E00 + GlyphCache.capacity + 100) {
            _ = cache.glyph(Unicode.Scalar(value)!, font)
        }
        XCTAssertLessThanOrEqual(cache.count, GlyphCache.capacity)
        XCTAssertGreaterThan(cache.glyph("A", font).advance, 0)
    }

    func testMissingFontNamesTheDebianPackage() {
        XCTAssertThrowsError(try FontSet.locate(environment: ["FAILSCOPE_FONT_DIR": "/nonexistent/fonts"])) { error in
            XCTAssertTrue("\(error)".contains("fonts-dejavu-core"), "\(error)")
            XCTAssertTrue("\(error)".contains("/nonexistent/fonts"), "\(error)")
        }
        XCTAssertThrowsError(try GlyphCache(fonts: FontSet(regular: "/nonexistent.ttf", bold: "/nonexistent.ttf"))) {
            guard case .freeType(_, "/nonexistent.ttf") = $0 as? FontError else { return XCTFail("got \($0)") }
        }
    }

    // MARK: The sample app

    func testDemoLoginShowsTheErrorFocusAndButton() throws {
        let screen = DemoScreens.loginError()
        let canvas = try render(screen)
        let error = try pixels(of: ID.Login.error, in: screen)
        let red = near(IOSPalette.red, 40)
        XCTAssertGreaterThan(count(canvas, in: error, where: red), 300)
        XCTAssertEqual(
            count(canvas, in: error.insetBy(dx: -16, dy: -16), where: red), count(canvas, in: error, where: red))
        let password = try pixels(of: ID.Login.password, in: screen)
        let email = try pixels(of: ID.Login.email, in: screen)
        XCTAssertEqual(canvas.pixel(x: password.minX + 1, y: password.minY + 44), IOSPalette.tint, "focused: ring")
        XCTAssertEqual(canvas.pixel(x: email.minX, y: email.minY + 44), IOSPalette.fieldBorder, "not focused")
        let button = try pixels(of: ID.Login.submit, in: screen)
        XCTAssertEqual(canvas.pixel(x: button.minX, y: button.minY + button.height / 2), IOSPalette.tint)
        XCTAssertEqual(canvas.pixel(x: button.minX - 1, y: button.minY + button.height / 2), IOSPalette.background)
    }

    func testDemoCatalogShowsThePlaceholderAndTheGrid() throws {
        let screen = DemoScreens.catalog()
        let canvas = try render(screen)
        // The empty search field reports its placeholder as its value (as XCUITest does): drawn grey.
        let search = try pixels(of: ID.Catalog.search, in: screen)
        XCTAssertEqual(count(canvas, in: search.insetBy(dx: 8, dy: 8), where: { $0.red < 150 }), 0)
        XCTAssertGreaterThan(
            count(canvas, in: search.insetBy(dx: 8, dy: 8), where: near(IOSPalette.placeholder, 30)), 50)
        let cell = try pixels(of: ID.Catalog.item(1), in: screen)
        XCTAssertEqual(canvas.pixel(x: cell.minX + 4, y: cell.maxY - 30), IOSPalette.groupedBackground)
        let image = try XCTUnwrap(
            try element(ID.Catalog.item(1), in: screen).children.first { $0.elementType == .image })
        let imagePixels = ScreenRenderer.pixelRect(for: image.frame, on: screen.device)
        XCTAssertEqual(
            canvas.pixel(x: imagePixels.minX + 10, y: imagePixels.minY + imagePixels.height / 2), IOSPalette.fill)
    }

    func testDemoItemAlertDimsTheItem() throws {
        let screen = DemoScreens.itemAlert()
        let canvas = try render(screen)
        let alert = try pixels(of: ID.Item.cartAlert, in: screen)
        XCTAssertEqual(canvas.pixel(x: alert.minX + 30, y: alert.minY + alert.height / 2), IOSPalette.alertBackground)
        let add = try pixels(of: ID.Item.addToCart, in: screen)
        XCTAssertEqual(
            canvas.pixel(x: add.minX + 30, y: add.minY + add.height / 2),
            IOSPalette.dimming.composited(over: IOSPalette.tint))
        let ok = try pixels(of: ID.Item.cartAlertOK, in: screen)
        XCTAssertGreaterThan(count(canvas, in: ok, where: near(IOSPalette.tint)), 30, "OK in the tint, not dimmed")
    }

    func testDemoSettingsShowsSwitchesAndTheSelectedAccent() throws {
        let screen = DemoScreens.settings()
        let canvas = try render(screen)
        for id in [ID.Settings.notifications, ID.Settings.wifiOnly] {
            let track = try pixels(of: id, in: screen)
            XCTAssertEqual(canvas.pixel(x: track.minX + 8, y: track.minY + track.height / 2), IOSPalette.green, id)
        }
        let wheel = try pixels(of: ID.Settings.accentWheel, in: screen)
        XCTAssertEqual(canvas.pixel(x: wheel.minX + 24, y: wheel.minY + wheel.height / 2), IOSPalette.pickerSelection)
    }

    // MARK: Reference images

    func testDemoLoginMatchesReference() throws {
        try ReferenceImages.assertMatches(render(DemoScreens.loginError()), named: "demo-login-se")
    }

    func testDemoCatalogMatchesReference() throws {
        try ReferenceImages.assertMatches(render(DemoScreens.catalog()), named: "demo-catalog-se")
    }

    func testDemoItemAlertMatchesReference() throws {
        try ReferenceImages.assertMatches(render(DemoScreens.itemAlert()), named: "demo-item-alert-se")
    }

    func testDemoSettingsMatchesReference() throws {
        try ReferenceImages.assertMatches(render(DemoScreens.settings()), named: "demo-settings-se")
    }

    func testOneRendererServesSeveralThreads() throws {
        let renderer = try ScreenRendererTests.shared.get()
        let screens = [
            SampleScreens.login(), SampleScreens.settings(), SampleScreens.catalog(), SampleScreens.loginAlert(),
        ]
        let expected = screens.map { renderer.render($0).pixels }
        let results = ConcurrentResults(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            results.set(i, renderer.render(screens[i % 4]).pixels == expected[i % 4])
        }
        XCTAssertEqual(results.values, Array(repeating: true, count: 8))
    }

    func testRenderedPNGDecodesToTheCanvas() throws {
        let renderer = try ScreenRendererTests.shared.get()
        let screen = SampleScreens.settings()
        let image = try PNGDecoder().decode(try renderer.renderPNG(screen))
        let canvas = renderer.render(screen)
        XCTAssertEqual(image.width, canvas.width)
        XCTAssertEqual(image.pixel(x: 600, y: 400), canvas.pixel(x: 600, y: 400))
        XCTAssertEqual(image.pixels.count, canvas.pixels.count)
        XCTAssertEqual(image.pixels, canvas.pixels, "opaque canvas: RGBA with alpha 255 on both sides")
    }
}

final class ReferenceImageTests: XCTestCase {
    func testAChangedElementIsBeyondTheToleranceAndWritesADifferenceImage() throws {
        let renderer = try ScreenRendererTests.shared.get()
        var screen = SampleScreens.login()
        let reference = try PNGDecoder().decode(try PNGEncoder().encode(renderer.render(screen)))
        XCTAssertEqual(ReferenceImages.difference(reference, reference).differing, 0)
        // The button's label changes: a small change, still well beyond the tolerance.
        screen.root.children[0].children[6].label = "Sign In"
        let changed = try PNGDecoder().decode(try PNGEncoder().encode(renderer.render(screen)))
        let (differing, diff) = ReferenceImages.difference(changed, reference)
        XCTAssertGreaterThan(
            Double(differing) / Double(reference.width * reference.height), ReferenceImages.pixelTolerance)
        XCTAssertEqual(diff.count, reference.width * reference.height * 3)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        setenv("FAILSCOPE_TEST_OUTPUT", output.path, 1)
        defer { unsetenv("FAILSCOPE_TEST_OUTPUT") }
        let folder = try ReferenceImages.writeFailure(
            name: "login-se", actual: Data([1]),
            diff: try PNGEncoder().encode(rgb: diff, width: reference.width, height: reference.height))
        XCTAssertEqual(folder.path, output.appendingPathComponent("ScreenRasterTests").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("login-se.actual.png").path))
        XCTAssertEqual(
            try PNGDecoder.header(of: Data(contentsOf: folder.appendingPathComponent("login-se.diff.png"))).width, 750)
    }

    func testRecordingNeedsTheVariableAndNeverHappensInCI() {
        XCTAssertTrue(ReferenceImages.isRecording(["FAILSCOPE_RECORD_REFERENCES": "1"]))
        XCTAssertFalse(ReferenceImages.isRecording(["FAILSCOPE_RECORD_REFERENCES": "1", "CI": "true"]))
        XCTAssertFalse(ReferenceImages.isRecording(["FAILSCOPE_RECORD_REFERENCES": "0"]))
        XCTAssertFalse(ReferenceImages.isRecording([:]))
    }
}

final class CorruptSnapshotTests: XCTestCase {
    func testNonsenseGeometryRendersWithoutTrapping() throws {
        let renderer = try ScreenRendererTests.shared.get()
        let weird: [CGRect] = [
            CGRect(x: Double.nan, y: 10, width: 100, height: 40), CGRect(x: 1e300, y: -1e300, width: 1e300, height: 5),
            CGRect(x: 10, y: 10, width: -50, height: Double.infinity), CGRect(x: 0, y: 0, width: 0, height: 0),
        ]
        var children: [ElementSnapshot] = []
        for frame in weird {
            for type in ElementType.allCases where type != .application {
                children.append(
                    ElementSnapshot(
                        elementType: type, label: "Label", value: "1", placeholderValue: "P", frame: frame,
                        hasFocus: true,
                        style: .filled, options: ["a", "b"], selectedOption: 7,
                        children: [ElementSnapshot(elementType: .button, label: "x", frame: frame)]))
            }
        }
        var device = Device.iPhoneSE3
        let root = SampleScreens.root(device, children)
        XCTAssertEqual(renderer.render(ScreenSnapshot(device: device, root: root)).width, 750)
        device.scale = 0
        device.height = .nan
        let canvas = renderer.render(ScreenSnapshot(device: device, root: root))
        XCTAssertEqual(canvas.width, 375, "scale clamped to 1")
        XCTAssertEqual(canvas.height, 1, "NaN height gives a one-pixel canvas, not a trap")
        device.width = 1e12
        device.height = 1e12
        device.scale = 99
        let huge = renderer.render(ScreenSnapshot(device: device, root: SampleScreens.root(.iPhoneSE3, [])))
        XCTAssertEqual([huge.width, huge.height], [10_000, 10_000])
    }
}

/// Results written from several threads, one slot each.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Bool]

    init(count: Int) { slots = Array(repeating: false, count: count) }

    func set(_ index: Int, _ value: Bool) { lock.withLock { slots[index] = value } }

    var values: [Bool] { lock.withLock { slots } }
}
