import SimulatedUI
import XCTest

final class DeviceTests: XCTestCase {
    func testShippedDevicesHaveTheirPixelSizes() {
        XCTAssertEqual(Device.iPhone15.pixelWidth, 1179)
        XCTAssertEqual(Device.iPhone15.pixelHeight, 2556)
        XCTAssertEqual(Device.iPhone15ProMax.pixelWidth, 1290)
        XCTAssertEqual(Device.iPhone15ProMax.pixelHeight, 2796)
        XCTAssertEqual(Device.iPhoneSE3.pixelWidth, 750)
        XCTAssertEqual(Device.iPad10.pixelHeight, 2360)
        XCTAssertEqual(Device.iPad10.idiom, .pad)
    }

    func testTheEnvironmentChoosesTheDevice() throws {
        XCTAssertEqual(try Device.fromEnvironment([:]), .iPhone15)
        XCTAssertEqual(try Device.fromEnvironment(["FAILSCOPE_DEVICE": "iPhone 15 Pro Max"]), .iPhone15ProMax)
        XCTAssertEqual(try Device.fromEnvironment(["FAILSCOPE_DEVICE": "ipad"]), .iPad10)
        XCTAssertEqual(try Device.fromEnvironment(["FAILSCOPE_DEVICE": "iphone-se-3rd-generation"]), .iPhoneSE3)
        XCTAssertThrowsError(try Device.fromEnvironment(["FAILSCOPE_DEVICE": "Pixel 8"])) { error in
            XCTAssertTrue("\(error)".contains("known devices: iPhone SE (3rd generation), iPhone 15,"), "\(error)")
        }
    }

    func testLayoutAdaptsToTheDevice() {
        let phone = SimulatedApp(FixtureApp.self, device: .iPhoneSE3)
        let pad = SimulatedApp(FixtureApp.self, device: .iPad10)
        phone.launch()
        pad.launch()
        XCTAssertEqual(
            phone.buttons["save"].frame, CGRect(x: 16, y: 20 + 44 + 16 + 44 + 12 + 44 + 12, width: 343, height: 50))
        XCTAssertEqual(pad.buttons["save"].frame.width, 780)
        XCTAssertEqual(pad.navigationBars["Fixture"].frame.minY, 24)
    }
}
