import CAdw
import CGTK
import XCTest

/// libadwaita, where the build found it: the version checked at build time, and its widgets.
final class AdwaitaTests: XCTestCase {
  func testTheLibraryIsAtLeastTheBuiltVersion() {
    XCTAssertGreaterThanOrEqual(cadw_built_version(), 1_02_00, "the shim refuses older ones")
    let running =
      Int32(adw_get_major_version()) * 10_000 + Int32(adw_get_minor_version()) * 100
      + Int32(adw_get_micro_version())
    XCTAssertGreaterThanOrEqual(running, cadw_built_version())
    XCTAssertEqual(cadw_has_navigation_view() != 0, cadw_built_version() >= 1_04_00)
  }

  func testItsWidgetsAreMadeOnTheDisplay() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      adw_init()
      let header = adw_header_bar_new()
      let window = adw_application_window_new(nil)
      XCTAssertNotNil(header)
      XCTAssertNotNil(window)
      gtk_window_destroy(cgtk_window(window))
    }
  }
}
