import CGTK

/// The cairo steps the board and the results chart both draw with.
nonisolated enum CairoDrawing {
  /// Makes `color` the source of the next strokes and fills.
  static func setColor(_ context: OpaquePointer, _ color: RGBA) {
    cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
  }

  /// Adds a closed rectangle with rounded corners to the path; the radius is at most half the
  /// shorter side, so that the arcs never cross.
  static func addRoundedRectangle(
    _ context: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double
  ) {
    let pi = Double.pi
    let radius = min(radius, width / 2, height / 2)
    cairo_new_sub_path(context)
    cairo_arc(context, x + width - radius, y + radius, radius, -pi / 2, 0)
    cairo_arc(context, x + width - radius, y + height - radius, radius, 0, pi / 2)
    cairo_arc(context, x + radius, y + height - radius, radius, pi / 2, pi)
    cairo_arc(context, x + radius, y + radius, radius, pi, 3 * pi / 2)
    cairo_close_path(context)
  }
}
