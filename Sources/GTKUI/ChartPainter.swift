import CGTK

/// One bar of the results chart: games won, drawn and lost, against the most games of any bar
/// (so every bar is drawn to the same scale).
nonisolated public struct ResultsBarPicture: Equatable, Sendable {
  /// Games won, drawn and lost.
  public var wins: Int, draws: Int, losses: Int
  /// The games of the longest bar: it fills the width.
  public var scale: Int

  /// Creates a bar.
  public init(wins: Int, draws: Int, losses: Int, scale: Int) {
    self.wins = wins
    self.draws = draws
    self.losses = losses
    self.scale = scale
  }

  /// The segments from the left: their colour's role, count and share of the width.
  var segments: [(kind: ResultKind, count: Int, share: Double)] {
    let scale = Double(max(self.scale, wins + draws + losses, 1))
    let counts: [(ResultKind, Int)] = [(.win, wins), (.draw, draws), (.loss, losses)]
    var segments: [(kind: ResultKind, count: Int, share: Double)] = []
    for (kind, count) in counts where count > 0 {
      segments.append((kind, count, Double(count) / scale))
    }
    return segments
  }
}

/// A result's colour in the chart and its legend.
nonisolated public enum ResultKind: CaseIterable, Sendable {
  case win
  case draw
  case loss

  /// The result's colour in `palette`.
  public func color(in palette: BoardPalette) -> RGBA {
    switch self {
    case .win: palette.success
    case .draw: palette.foreground.fading(0.45)
    case .loss: palette.failure
    }
  }
}

/// Draws the results chart's bars and its legend's swatches with cairo, sized from the area.
nonisolated public enum ChartPainter {
  /// Paints one bar: a faint track the full width, and a segment a result, each with its count
  /// when it fits.
  public static func paint(
    _ bar: ResultsBarPicture, palette: BoardPalette, on context: OpaquePointer, width: Double,
    height: Double
  ) {
    guard width > 4, height > 4 else { return }
    cairo_save(context)
    defer { cairo_restore(context) }
    let radius = min(6, height / 2)
    CairoDrawing.setColor(context, palette.foreground.fading(0.08))
    CairoDrawing.addRoundedRectangle(
      context, x: 0, y: 0, width: width, height: height, radius: radius)
    cairo_fill(context)

    // The segments share one rounded outline: clip to the filled part, then paint each.
    let filled = bar.segments.reduce(0) { $0 + $1.share } * width
    guard filled > 0 else { return }
    cairo_save(context)
    CairoDrawing.addRoundedRectangle(
      context, x: 0, y: 0, width: filled, height: height, radius: radius)
    cairo_clip(context)
    var left = 0.0
    for segment in bar.segments {
      let segmentWidth = segment.share * width
      CairoDrawing.setColor(context, segment.kind.color(in: palette))
      cairo_rectangle(context, left, 0, segmentWidth, height)
      cairo_fill(context)
      paintCount(
        segment.count, centeredAt: left + segmentWidth / 2, within: segmentWidth, height: height,
        context)
      left += segmentWidth
    }
    cairo_restore(context)
  }

  /// Paints a legend's swatch: a rounded square of the result's colour.
  public static func paintSwatch(
    _ kind: ResultKind, palette: BoardPalette, on context: OpaquePointer, side: Double
  ) {
    CairoDrawing.setColor(context, kind.color(in: palette))
    CairoDrawing.addRoundedRectangle(
      context, x: 0, y: 0, width: side, height: side, radius: side / 4)
    cairo_fill(context)
  }

  private static func paintCount(
    _ count: Int, centeredAt center: Double, within width: Double, height: Double,
    _ context: OpaquePointer
  ) {
    guard let layout = pango_cairo_create_layout(context) else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    let font = pango_font_description_from_string("Sans Bold")
    defer { pango_font_description_free(font) }
    pango_font_description_set_absolute_size(font, height * 0.6 * Double(PANGO_SCALE))
    pango_layout_set_font_description(layout, font)
    pango_layout_set_text(layout, String(count), -1)
    var textWidth: Int32 = 0
    var textHeight: Int32 = 0
    pango_layout_get_pixel_size(layout, &textWidth, &textHeight)
    // Only where it fits with a margin: a thin segment shows its colour alone.
    guard Double(textWidth) + 8 <= width else { return }
    cairo_set_source_rgba(context, 1, 1, 1, 0.95)
    cairo_move_to(context, center - Double(textWidth) / 2, (height - Double(textHeight)) / 2)
    pango_cairo_show_layout(context, layout)
  }

}
