// libadwaita's shim is the module that GLib's GValue is imported through.
import CAdw
import CGTK
import GTKUI
import GameCore
import GameRules
import TestSupport
import XCTest

/// The drawn board: what the painter puts where (read back from pixels), and the buttons that
/// keep every cell named, focusable and playable.
final class BoardViewTests: XCTestCase {
  private let palette = BoardPalette.light

  // MARK: - The picture, read back from pixels

  func testMarksAreDrawnInTheirCellsAndEmptyCellsStayEmpty() throws {
    let state = try game(.hotSeat, moves: ["b2", "a1"])
    let image = Image(BoardPicture(rows: state.rows), palette: palette, side: 300)

    XCTAssertTrue(image.isNear(palette.x, x: 150, y: 150), "X crosses the middle of b2")
    XCTAssertTrue(image.isNear(palette.x, x: 128, y: 128), "along X's first stroke")
    XCTAssertTrue(image.isNear(palette.o, x: 50, y: 50 - 26), "O's ring at the top of a1")
    XCTAssertFalse(image.isNear(palette.o, x: 50, y: 50), "O's ring is hollow")
    XCTAssertTrue(image.isNear(palette.surface, x: 250, y: 250), "c3 is empty")
    XCTAssertTrue(image.isNear(palette.surface, x: 150, y: 50), "b1 is empty")
  }

  func testLinesSeparateTheCells() throws {
    let image = Image(
      BoardPicture(rows: try game(.hotSeat, moves: []).rows), palette: palette, side: 300)
    for (x, y) in [(100, 150), (200, 150), (150, 100), (150, 200)] {
      XCTAssertLessThan(image.brightness(x: x, y: y), 0.9, "a line at \(x), \(y)")
    }
    XCTAssertTrue(image.isNear(palette.surface, x: 150, y: 150), "no line inside a cell")

    var strong = palette
    strong.lineStrength = 0.9
    let contrasted = Image(
      BoardPicture(rows: try game(.hotSeat, moves: []).rows), palette: strong, side: 300)
    XCTAssertLessThan(
      contrasted.brightness(x: 100, y: 150), image.brightness(x: 100, y: 150) - 0.3,
      "high contrast draws the lines darker")
  }

  func testTheWinningLineIsDrawnAcrossTheWinningCells() throws {
    let won = try game(.hotSeat, moves: ["a1", "a2", "b1", "b2", "c1"])
    let image = Image(BoardPicture(rows: won.rows), palette: palette, side: 300)
    let going = try game(.hotSeat, moves: ["a1", "a2", "b1", "b2"])
    let before = Image(BoardPicture(rows: going.rows), palette: palette, side: 300)

    // Between a1 and b1, on the top row's centre line: no mark, only the winning line.
    XCTAssertLessThan(image.brightness(x: 96, y: 50), 0.5, "the line crosses the gap")
    XCTAssertGreaterThan(before.brightness(x: 96, y: 50), 0.8, "no line before the win")
    XCTAssertLessThan(image.brightness(x: 30, y: 50), 0.5, "it reaches past a1's centre")
    XCTAssertTrue(image.isNear(palette.surface, x: 150, y: 250), "the bottom row is untouched")
  }

  func testALastMoveAndTheHintAreMarked() throws {
    var state = try game(.hotSeat, moves: ["a1"])
    state.hint = Cell(row: 1, column: 1)
    let image = Image(BoardPicture(rows: state.rows, mover: .o), palette: palette, side: 300)

    XCTAssertFalse(image.isNear(palette.surface, x: 12, y: 50), "a1's background is tinted")
    XCTAssertTrue(image.isNear(palette.surface, x: 212, y: 50), "c1's is not")
    XCTAssertFalse(image.isNear(palette.surface, x: 150, y: 150 - 26), "the hint shows O faintly")
    XCTAssertFalse(image.isNear(palette.o, x: 150, y: 150 - 26), "only faintly")
  }

  func testHoverPressAndFocusAreDrawn() throws {
    let rows = try game(.hotSeat, moves: []).rows
    var picture = BoardPicture(rows: rows, mover: .x)
    let plain = Image(picture, palette: palette, side: 300)
    picture.hovered = Cell(row: 2, column: 2)
    picture.focused = Cell(row: 0, column: 2)
    let image = Image(picture, palette: palette, side: 300)

    XCTAssertTrue(plain.isNear(palette.surface, x: 250, y: 250))
    XCTAssertFalse(
      image.isNear(palette.surface, x: 250, y: 250), "X shows faintly under the pointer")
    XCTAssertTrue(image.isNear(palette.accent, x: 200 + 7, y: 50), "the focus ring on c1")
    XCTAssertFalse(plain.isNear(palette.accent, x: 200 + 7, y: 50))
  }

  func testAPlacementDrawsTheMarkProgressively() throws {
    let rows = try game(.hotSeat, moves: ["b2"]).rows
    var picture = BoardPicture(rows: rows)
    picture.placement[Cell(row: 1, column: 1)] = 0.1
    let early = Image(picture, palette: palette, side: 300)
    let done = Image(BoardPicture(rows: rows), palette: palette, side: 300)

    // X's first stroke runs from the top left; the second, from the top right, comes later.
    XCTAssertTrue(early.isNear(palette.x, x: 128, y: 128), "the first stroke has begun")
    XCTAssertFalse(early.isNear(palette.x, x: 170, y: 170), "it has not reached the end")
    XCTAssertFalse(early.isNear(palette.x, x: 170, y: 130), "the second stroke waits")
    XCTAssertTrue(done.isNear(palette.x, x: 170, y: 130), "both strokes at the end")
  }

  func testTheAnalysisIsWrittenOnEmptyCellsInItsColour() throws {
    var rows = try game(.hotSeat, moves: ["a1"]).rows
    rows[1][1].analysisCode = "W3"
    rows[1][1].analysisText = "win in 3"
    rows[2][2].analysisCode = "L4"
    rows[2][2].analysisText = "loss in 4"
    let image = Image(BoardPicture(rows: rows), palette: palette, side: 300)

    XCTAssertGreaterThan(image.count(near: palette.success, in: 100..<200, 100..<200), 20)
    XCTAssertGreaterThan(image.count(near: palette.failure, in: 200..<300, 200..<300), 20)
    XCTAssertEqual(image.count(near: palette.success, in: 200..<300, 0..<100), 0)
  }

  func testTheBoardScalesWithTheAreaAndStaysSquare() {
    let wide = BoardGeometry(rows: 3, columns: 3, width: 600, height: 300)
    XCTAssertEqual(wide.cell, 100)
    XCTAssertEqual(wide.left, 150)
    XCTAssertEqual(wide.top, 0)
    let large = BoardGeometry(rows: 15, columns: 15, width: 450, height: 450)
    XCTAssertEqual(large.cell, 30)
    for row in 0..<15 {
      for column in 0..<15 {
        let cell = Cell(row: row, column: column)
        let (x, y) = large.center(of: cell)
        XCTAssertEqual(large.cell(atX: x, y: y), cell)
      }
    }
    XCTAssertNil(large.cell(atX: 451, y: 10))
    XCTAssertNil(large.cell(atX: 10, y: -1))
    // The marks grow with the board: twice the side, twice the mark's width.
    let rows = (try? game(.hotSeat, moves: ["b2"]).rows) ?? []
    let small = Image(BoardPicture(rows: rows), palette: palette, side: 150)
    let big = Image(BoardPicture(rows: rows), palette: palette, side: 300)
    let smallWidth = small.extent(of: palette.x)
    XCTAssertGreaterThan(smallWidth, 20)
    XCTAssertEqual(Double(big.extent(of: palette.x)) / Double(smallWidth), 2, accuracy: 0.15)
  }

  // MARK: - The buttons under the picture

  func testEveryCellIsAFocusablePushButtonNamedByTheCore() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      var chosen: [Cell] = []
      let board = BoardView { chosen.append($0) }
      var settings = GameSettings.hotSeat
      settings.rows = 15
      settings.columns = 15
      settings.k = 5
      let state = try GameFeature.State(settings: settings, firstMover: .x, startedAt: 0)
      board.render(state.rows, mover: .x, isThinking: false)

      let buttons = board.cells.flatMap { $0 }
      XCTAssertEqual(buttons.count, 225)
      XCTAssertEqual(Set(buttons.compactMap(\.accessibleName)).count, 225)
      for button in buttons {
        XCTAssertEqual(
          gtk_accessible_get_accessible_role(OpaquePointer(button.widget)),
          GTK_ACCESSIBLE_ROLE_BUTTON)
        XCTAssertEqual(gtk_widget_get_focusable(button.widget), 1)
        XCTAssertEqual(button.label, "")
        XCTAssertNil(gtk_button_get_child(cgtk_button(button.widget)), "nothing inside")
      }
      board.cells[14][0].click()
      XCTAssertEqual(chosen, [Cell(row: 14, column: 0)])
      XCTAssertTrue(buttons.allSatisfy(\.hasCursor), "a hand on each")

      var played = state
      try played.game.play(at: Cell(row: 14, column: 0))
      board.render(played.rows, mover: .o, isThinking: false)
      XCTAssertFalse(board.cells[14][0].hasCursor, "no hand over a taken cell")
      XCTAssertTrue(board.cells[0][0].hasCursor)
    }
  }

  func testTheButtonsStatesReachThePicture() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      let board = BoardView { _ in }
      board.render(try game(.hotSeat, moves: []).rows, mover: .x, isThinking: false)
      XCTAssertNil(board.picture().hovered)

      board.cells[2][1].interaction.isHovered = true
      board.cells[0][1].interaction.isPressed = true
      XCTAssertEqual(board.picture().hovered, Cell(row: 2, column: 1))
      XCTAssertEqual(board.picture().pressed, Cell(row: 0, column: 1))
      board.cells[2][1].interaction.isHovered = false
      XCTAssertNil(board.picture().hovered)
    }
  }

  func testANewMarkIsPlacedWithAShortAnimation() throws {
    try MainActor.assumeIsolated {
      try requireDisplay()
      setAnimations(true)
      let board = BoardView { _ in }
      board.render(try game(.hotSeat, moves: []).rows, mover: .x, isThinking: false)
      board.render(try game(.hotSeat, moves: ["b2"]).rows, mover: .o, isThinking: false)
      let end = g_get_monotonic_time()

      let placing = board.picture(at: end).placement[Cell(row: 1, column: 1)]
      XCTAssertNotNil(placing)
      XCTAssertLessThan(placing ?? 1, 1)
      XCTAssertEqual(board.picture(at: end).placement.count, 1, "only the new mark moves")
      let later = end + BoardView.placementDuration
      XCTAssertTrue(board.picture(at: later).placement.isEmpty, "done after the duration")

      setAnimations(false)
      board.render(try game(.hotSeat, moves: ["b2", "a1"]).rows, mover: .x, isThinking: false)
      XCTAssertNil(
        board.picture(at: g_get_monotonic_time()).placement[Cell(row: 0, column: 0)],
        "no animation where the desktop turns them off")
      setAnimations(true)
    }
  }
}

/// Sets `gtk-enable-animations` for the default display.
@MainActor
private func setAnimations(_ isOn: Bool) {
  guard let settings = gtk_settings_get_default() else { return }
  var value = GValue()
  g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
  g_value_set_boolean(&value, isOn ? 1 : 0)
  g_object_set_property(
    UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self),
    "gtk-enable-animations", &value)
  g_value_unset(&value)
}

/// A picture painted on a cairo image, read back pixel by pixel.
private struct Image {
  private var pixels: [UInt32] = []
  private let width: Int

  init(_ picture: BoardPicture, palette: BoardPalette, side: Int) {
    width = side
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side))
    else { return }
    defer { cairo_surface_destroy(surface) }
    guard let context = cairo_create(surface) else { return }
    BoardPainter.paint(
      picture, palette: palette, on: context, width: Double(side), height: Double(side))
    cairo_destroy(context)
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface)) / 4
    guard let data = cairo_image_surface_get_data(surface) else { return }
    let words = UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self)
    for y in 0..<side {
      for x in 0..<side { pixels.append(words[y * stride + x]) }
    }
  }

  /// The colour at a point, unpremultiplied, from 0 to 1.
  func color(x: Int, y: Int) -> RGBA {
    let word = pixels[y * width + x]
    let alpha = Double(word >> 24 & 0xff) / 255
    guard alpha > 0 else { return RGBA(red: 0, green: 0, blue: 0, alpha: 0) }
    return RGBA(
      red: Double(word >> 16 & 0xff) / 255 / alpha, green: Double(word >> 8 & 0xff) / 255 / alpha,
      blue: Double(word & 0xff) / 255 / alpha, alpha: alpha)
  }

  /// Whether the point has `color` (opaque, to within a few percent).
  func isNear(_ expected: RGBA, x: Int, y: Int) -> Bool {
    let found = color(x: x, y: y)
    return abs(found.red - expected.red) < 0.06 && abs(found.green - expected.green) < 0.06
      && abs(found.blue - expected.blue) < 0.06 && found.alpha > 0.9
  }

  /// The mean of the colour's components at a point: 1 is white.
  func brightness(x: Int, y: Int) -> Double {
    let found = color(x: x, y: y)
    return (found.red + found.green + found.blue) / 3
  }

  /// How many columns lie between the leftmost and the rightmost point with `color`.
  func extent(of expected: RGBA) -> Int {
    let columns = (0..<width).filter { x in
      (0..<pixels.count / width).contains { isNear(expected, x: x, y: $0) }
    }
    guard let first = columns.first, let last = columns.last else { return 0 }
    return last - first + 1
  }

  /// How many points of a rectangle have `color`.
  func count(near expected: RGBA, in columns: Range<Int>, _ rows: Range<Int>) -> Int {
    var count = 0
    for y in rows {
      for x in columns where isNear(expected, x: x, y: y) { count += 1 }
    }
    return count
  }
}
