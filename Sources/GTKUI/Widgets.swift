import CAdw
public import CGTK

/// A GTK widget, as the C API hands it out.
public typealias Widget = UnsafeMutablePointer<CGTK.GtkWidget>

// The views build their screens from these wrappers only. Each wraps one GTK widget and holds a
// reference to it, connects its signals once to closures it owns, and sets properties only when
// they change, so a view's `render` can set everything on every change.

// MARK: - Every widget

/// A widget of a view: visibility, sensitivity, style classes, focus and accessible text.
public class Element {
  /// The GTK widget.
  public let widget: Widget

  init(_ widget: Widget) {
    self.widget = widget
    // The wrapper's own reference: the widget outlives neither its parent's nor this one.
    g_object_ref_sink(UnsafeMutableRawPointer(widget))
  }

  isolated deinit {
    g_object_unref(UnsafeMutableRawPointer(widget))
  }

  /// Whether the widget is shown.
  public var isVisible: Bool {
    get { gtk_widget_get_visible(widget) != 0 }
    set { if isVisible != newValue { gtk_widget_set_visible(widget, newValue ? 1 : 0) } }
  }

  /// Whether the widget takes input.
  public var isSensitive: Bool {
    get { gtk_widget_get_sensitive(widget) != 0 }
    set { if isSensitive != newValue { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) } }
  }

  /// Whether the widget holds the keyboard focus.
  public var isFocused: Bool { gtk_widget_is_focus(widget) != 0 }

  /// Whether the widget has a CSS class.
  public func hasClass(_ name: String) -> Bool { gtk_widget_has_css_class(widget, name) != 0 }

  /// Adds or removes a CSS class.
  func setClass(_ name: String, _ isOn: Bool) {
    if isOn {
      gtk_widget_add_css_class(widget, name)
    } else {
      gtk_widget_remove_css_class(widget, name)
    }
  }

  /// Adds CSS classes.
  @discardableResult
  func classes(_ names: String...) -> Self {
    for name in names { gtk_widget_add_css_class(widget, name) }
    return self
  }

  /// The name assistive technologies read, if one was given.
  public var accessibleName: String? {
    get { cgtk_accessible_label(widget).map { String(cString: $0) } }
    set { if accessibleName != newValue { cgtk_set_accessible_label(widget, newValue ?? "") } }
  }

  /// What assistive technologies add after the name, if anything was given.
  public var accessibleDescription: String? {
    get { cgtk_accessible_description(widget).map { String(cString: $0) } }
    set {
      if accessibleDescription != newValue {
        cgtk_set_accessible_description(widget, newValue ?? "")
      }
    }
  }

  /// Whether assistive technologies are told the widget is disabled, while it stays focusable.
  public var isAccessibleDisabled: Bool {
    get { cgtk_accessible_disabled(widget) != 0 }
    set {
      if isAccessibleDisabled != newValue { cgtk_set_accessible_disabled(widget, newValue ? 1 : 0) }
    }
  }

  /// Moves the keyboard focus here.
  package func grabFocus() { gtk_widget_grab_focus(widget) }

  /// Puts `text` on the clipboard of the widget's display.
  func copyToClipboard(_ text: String) {
    gdk_clipboard_set_text(gdk_display_get_clipboard(gtk_widget_get_display(widget)), text)
  }

  /// The clipboard's text as this program last set it, for tests.
  package var clipboardText: String? {
    let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
    guard let content = gdk_clipboard_get_content(clipboard) else { return nil }
    var value = GValue()
    g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
    defer { g_value_unset(&value) }
    guard gdk_content_provider_get_value(content, &value, nil) != 0,
      let text = g_value_get_string(&value)
    else { return nil }
    return String(cString: text)
  }

  /// Lets the widget grow in both directions.
  @discardableResult
  func expanding() -> Self {
    gtk_widget_set_hexpand(widget, 1)
    gtk_widget_set_vexpand(widget, 1)
    return self
  }

  /// Centres the widget horizontally.
  @discardableResult
  func centered() -> Self {
    gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
    return self
  }

  /// Puts the same margin on every side.
  @discardableResult
  func margin(_ size: Int32) -> Self {
    margin(size, bottom: size)
  }

  /// Sets the margin on the top and the sides to `size`, and at the bottom to `bottom`.
  func margin(_ size: Int32, bottom: Int32) -> Self {
    gtk_widget_set_margin_top(widget, size)
    gtk_widget_set_margin_bottom(widget, bottom)
    gtk_widget_set_margin_start(widget, size)
    gtk_widget_set_margin_end(widget, size)
    return self
  }

  /// Asks for a width (and height); -1 leaves one free.
  @discardableResult
  func size(width: Int32 = -1, height: Int32 = -1) -> Self {
    gtk_widget_set_size_request(widget, width, height)
    return self
  }

  /// Calls `handler` for keys pressed while focus is inside the widget, before its children see
  /// them; the handler returns whether it used the key.
  func onKeyPressed(_ handler: @escaping (_ keyval: UInt32, _ modifiers: UInt32) -> Bool) {
    let controller = gtk_event_controller_key_new()
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
    connectKey(UnsafeMutableRawPointer(controller), handler)
    gtk_widget_add_controller(widget, controller)
  }

  /// Adds a keyboard shortcut such as `<Control>z` or `F1` over the widget and its children.
  func addShortcut(_ trigger: String, _ handler: @escaping () -> Void) {
    let controller = gtk_shortcut_controller_new()
    gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
    let shortcut = gtk_shortcut_new(
      gtk_shortcut_trigger_parse_string(trigger), callbackAction(handler))
    gtk_shortcut_controller_add_shortcut(controller, shortcut)
    gtk_widget_add_controller(widget, controller)
  }
}

/// Modifier bits of GDK key events.
enum Modifier {
  static let control = GDK_CONTROL_MASK.rawValue
  static let alt = GDK_ALT_MASK.rawValue
}

// MARK: - Text

/// `text` with the characters Pango markup gives a meaning to (`<`, `>`, `&`, quotes) escaped,
/// for the libadwaita labels that read their text as markup, so that a name such as `a<b`
/// shows as typed.
func markupEscaped(_ text: String) -> String {
  guard let escaped = g_markup_escape_text(text, -1) else { return "" }
  defer { g_free(escaped) }
  return String(cString: escaped)
}

/// A label: wrapping text, aligned left unless told otherwise.
public final class Label: Element {
  /// Creates a label.
  init(_ text: String = "", wraps: Bool = true) {
    super.init(gtk_label_new(text))
    gtk_label_set_wrap(cgtk_label(widget), wraps ? 1 : 0)
    gtk_label_set_xalign(cgtk_label(widget), 0)
  }

  /// A label that assistive technologies treat as a status line, so changes are announced.
  static func status() -> Label {
    Label(announcing: cgtk_status_label_new(""))
  }

  private init(announcing widget: Widget) {
    super.init(widget)
    gtk_label_set_wrap(cgtk_label(widget), 1)
  }

  /// The text shown.
  public var text: String {
    get { String(cString: gtk_label_get_text(cgtk_label(widget))) }
    set { if text != newValue { gtk_label_set_text(cgtk_label(widget), newValue) } }
  }

  /// Shows a message, or hides the label when there is none.
  var message: String? {
    get { isVisible ? text : nil }
    set {
      text = newValue ?? ""
      isVisible = newValue != nil
    }
  }

  /// Centres the text.
  @discardableResult
  func centeredText() -> Self {
    gtk_label_set_xalign(cgtk_label(widget), 0.5)
    return self
  }

  /// Lets the player select and copy the text.
  @discardableResult
  func selectable() -> Self {
    gtk_label_set_selectable(cgtk_label(widget), 1)
    return self
  }

  /// Sets the font size in pixels, over the style's, for the whole text.
  func setFontSize(pixels: Int) {
    guard let attributes = pango_attr_list_new() else { return }
    pango_attr_list_insert(attributes, pango_attr_size_new_absolute(Int32(pixels) * PANGO_SCALE))
    gtk_label_set_attributes(cgtk_label(widget), attributes)
    pango_attr_list_unref(attributes)
  }

  /// Underlines the letter after `_` and moves the focus to `target` on Alt with it.
  @discardableResult
  func mnemonic(for target: Element) -> Self {
    gtk_label_set_use_underline(cgtk_label(widget), 1)
    gtk_label_set_mnemonic_widget(cgtk_label(widget), target.widget)
    return self
  }
}

/// A one-line text field, a password field that hides what is typed, or a field row of a boxed
/// list (libadwaita's entry row, whose title names it).
public final class Entry: Element {
  /// Called with the text after each edit by the player.
  var onChange: (String) -> Void = { _ in }
  /// Called when the player presses Enter in the field.
  var onActivate: () -> Void = {}
  private var isSetting = false

  /// Creates a field; one without a visible mnemonic label gets `accessibleName`.
  convenience init(
    placeholder: String = "", isPassword: Bool = false, accessibleName: String? = nil
  ) {
    self.init(isPassword ? gtk_password_entry_new() : gtk_entry_new(), enter: "activate")
    if let accessibleName { self.accessibleName = accessibleName }
    if isPassword {
      gtk_password_entry_set_show_peek_icon(OpaquePointer(widget), 1)
    } else {
      gtk_entry_set_placeholder_text(cgtk_entry(widget), placeholder)
    }
  }

  /// A field row of a boxed list, titled (and named) `title`.
  convenience init(rowTitle title: String) {
    self.init(adw_entry_row_new(), enter: "entry-activated")
    adw_preferences_row_set_use_markup(cadw_preferences_row(widget), 0)
    adw_preferences_row_set_title(cadw_preferences_row(widget), title)
  }

  /// A field row's title, which also names it.
  var title: String {
    get {
      adw_preferences_row_get_title(cadw_preferences_row(widget)).map { String(cString: $0) } ?? ""
    }
    set {
      if title != newValue { adw_preferences_row_set_title(cadw_preferences_row(widget), newValue) }
    }
  }

  private init(_ widget: Widget, enter: String) {
    super.init(widget)
    connect(widget, "changed") { [weak self] in
      guard let self, !self.isSetting else { return }
      self.onChange(self.text)
    }
    connect(widget, enter) { [weak self] in self?.onActivate() }
  }

  /// The text; setting it to what it is keeps the cursor, and does not call ``onChange``.
  public var text: String {
    get { String(cString: gtk_editable_get_text(cgtk_editable(widget))) }
    set {
      guard text != newValue else { return }
      isSetting = true
      gtk_editable_set_text(cgtk_editable(widget), newValue)
      isSetting = false
    }
  }

  /// Makes each field send its action with the text after every edit, and `submit` on Enter.
  static func send<Action>(
    _ changes: KeyValuePairs<Entry, (String) -> Action>, submit: Action,
    to send: @escaping (Action) -> Void
  ) {
    for (entry, change) in changes {
      entry.onChange = { send(change($0)) }
      entry.onActivate = { send(submit) }
    }
  }

  /// Types `text` as a player would, for tests: ``onChange`` hears it.
  package func type(_ text: String) {
    gtk_editable_set_text(cgtk_editable(widget), text)
  }
}

// MARK: - Buttons

/// A push button calling ``action`` when clicked.
public final class Button: Element {
  /// The click's handler; the connection holds it, so a button no view keeps still works.
  private let clicked: Callback

  /// What a click does.
  var action: () -> Void {
    get { clicked.body }
    set { clicked.body = newValue }
  }

  /// A button with a mnemonic (`_Undo` is pressed by Alt+U), named by its text without the
  /// underscore.
  init(mnemonic: String, action: @escaping () -> Void = {}) {
    clicked = Callback(action)
    super.init(gtk_button_new_with_mnemonic(mnemonic))
    cgtk_name_mnemonic_button(widget, mnemonic.replacing("_", with: ""))
    connect(widget, "clicked") { [clicked] in clicked.body() }
  }

  /// A button showing `label` as it is.
  init(label: String, action: @escaping () -> Void = {}) {
    clicked = Callback(action)
    super.init(gtk_button_new_with_label(label))
    connect(widget, "clicked") { [clicked] in clicked.body() }
  }

  /// The text shown.
  public var label: String {
    get { gtk_button_get_label(cgtk_button(widget)).map { String(cString: $0) } ?? "" }
    set { if label != newValue { gtk_button_set_label(cgtk_button(widget), newValue) } }
  }

  /// Changes a mnemonic label, keeping the accessible name the clean text.
  func setMnemonic(_ mnemonic: String) {
    guard label != mnemonic else { return }
    gtk_button_set_label(cgtk_button(widget), mnemonic)
    gtk_button_set_use_underline(cgtk_button(widget), 1)
    cgtk_name_mnemonic_button(widget, mnemonic.replacing("_", with: ""))
  }

  /// Clicks the button as a player would, for tests.
  package func click() { cgtk_button_click(widget) }

  /// Makes each button send its action when clicked.
  static func send<Action>(
    _ actions: KeyValuePairs<Button, Action>, to send: @escaping (Action) -> Void
  ) {
    for (button, action) in actions { button.action = { send(action) } }
  }
}

/// Toggle buttons of which one is chosen, like radio buttons, joined in one row.
package final class Choice<Value: Equatable>: Element {
  private var options: [(value: Value, button: Widget)] = []
  /// Called when the player picks another option.
  var onSelect: (Value) -> Void = { _ in }
  private var isSetting = false

  /// Creates the group from each option's value, visible label and accessible name.
  init(_ options: [(value: Value, label: String, name: String)]) {
    super.init(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
    classes("linked")
    for option in options {
      let button: Widget = gtk_toggle_button_new_with_label(option.label)
      cgtk_set_accessible_label(button, option.name)
      if let first = self.options.first?.button {
        gtk_toggle_button_set_group(cgtk_toggle_button(button), cgtk_toggle_button(first))
      }
      let value = option.value
      connect(button, "toggled") { [weak self] in
        guard let self, !self.isSetting,
          gtk_toggle_button_get_active(cgtk_toggle_button(button)) != 0
        else { return }
        self.onSelect(value)
      }
      gtk_box_append(cgtk_box(widget), button)
      self.options.append((value, button))
    }
  }

  /// Shows `label` (and gives it as the accessible name) on the button of `value`.
  func setLabel(_ label: String, for value: Value) {
    for option in options where option.value == value {
      gtk_button_set_label(cgtk_button(option.button), label)
      cgtk_set_accessible_label(option.button, label)
    }
  }

  /// Shows the buttons of `values` and hides the others.
  func showOnly(_ values: [Value]) {
    for option in options {
      gtk_widget_set_visible(option.button, values.contains(option.value) ? 1 : 0)
    }
  }

  /// The chosen option; setting it does not call ``onSelect``.
  var selected: Value? {
    get {
      options.first { gtk_toggle_button_get_active(cgtk_toggle_button($0.button)) != 0 }?.value
    }
    set {
      guard let newValue, selected != newValue else { return }
      isSetting = true
      for option in options where option.value == newValue {
        gtk_toggle_button_set_active(cgtk_toggle_button(option.button), 1)
      }
      isSetting = false
    }
  }
}

/// A field for a whole number within a range, with − and + buttons.
package final class NumberField: Element {
  /// Called with the number the player set.
  var onChange: (Int) -> Void = { _ in }
  private var isSetting = false

  init(range: ClosedRange<Int>) {
    super.init(
      gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1))
    connect(widget, "value-changed") { [weak self] in
      guard let self, !self.isSetting else { return }
      self.onChange(self.value)
    }
  }

  /// The number shown; setting it does not call ``onChange``.
  package var value: Int {
    get { Int(gtk_spin_button_get_value_as_int(cgtk_spin_button(widget))) }
    set {
      guard value != newValue else { return }
      isSetting = true
      gtk_spin_button_set_value(cgtk_spin_button(widget), Double(newValue))
      isSetting = false
    }
  }

  /// The numbers allowed.
  var range: ClosedRange<Int> {
    get {
      var low = 0.0
      var high = 0.0
      gtk_spin_button_get_range(cgtk_spin_button(widget), &low, &high)
      return Int(low)...Int(high)
    }
    set {
      guard range != newValue else { return }
      isSetting = true
      gtk_spin_button_set_range(
        cgtk_spin_button(widget), Double(newValue.lowerBound), Double(newValue.upperBound))
      isSetting = false
    }
  }
}

/// A spinner, shown only while it spins.
package final class Spinner: Element {
  init() {
    super.init(gtk_spinner_new())
    isVisible = false
  }

  /// Whether it spins (and shows).
  package var isSpinning: Bool {
    get { isVisible }
    set {
      guard isSpinning != newValue else { return }
      if newValue {
        gtk_spinner_start(cgtk_spinner(widget))
      } else {
        gtk_spinner_stop(cgtk_spinner(widget))
      }
      isVisible = newValue
    }
  }
}

// MARK: - Containers

/// A row or a column of widgets.
package final class Box: Element {
  init(_ orientation: GtkOrientation, spacing: Int32 = 6, _ children: [Element] = []) {
    super.init(gtk_box_new(orientation, spacing))
    for child in children { append(child) }
  }

  /// A row of widgets.
  static func row(spacing: Int32 = 6, _ children: Element...) -> Box {
    Box(GTK_ORIENTATION_HORIZONTAL, spacing: spacing, children)
  }

  /// A column of widgets.
  static func column(spacing: Int32 = 6, _ children: Element...) -> Box {
    Box(GTK_ORIENTATION_VERTICAL, spacing: spacing, children)
  }

  /// Appends a child.
  func append(_ child: Element) { gtk_box_append(cgtk_box(widget), child.widget) }

  /// Removes every child.
  func removeAll() {
    while let child = gtk_widget_get_first_child(widget) {
      gtk_box_remove(cgtk_box(widget), child)
    }
  }
}

/// Widgets in rows and columns.
package final class Grid: Element {
  init(rowSpacing: Int32 = 0, columnSpacing: Int32 = 0, isHomogeneous: Bool = false) {
    super.init(gtk_grid_new())
    gtk_grid_set_row_spacing(cgtk_grid(widget), UInt32(rowSpacing))
    gtk_grid_set_column_spacing(cgtk_grid(widget), UInt32(columnSpacing))
    gtk_grid_set_row_homogeneous(cgtk_grid(widget), isHomogeneous ? 1 : 0)
    gtk_grid_set_column_homogeneous(cgtk_grid(widget), isHomogeneous ? 1 : 0)
  }

  /// Puts `child` at a row and column.
  func attach(_ child: Element, row: Int, column: Int) {
    gtk_grid_attach(cgtk_grid(widget), child.widget, Int32(column), Int32(row), 1, 1)
  }
}

/// A frame keeping its child at one aspect ratio, centred, as large as the room allows.
package final class AspectFrame: Element {
  init() {
    super.init(gtk_aspect_frame_new(0.5, 0.5, 1, 0))
  }

  /// Shows `child` at `columns` : `rows`.
  func show(_ child: Element, columns: Int, rows: Int) {
    gtk_aspect_frame_set_ratio(cgtk_aspect_frame(widget), Float(columns) / Float(rows))
    gtk_aspect_frame_set_child(cgtk_aspect_frame(widget), child.widget)
  }
}

/// A scrolled area for a form taller than the window, scrolling vertically only.
package final class Scrolled: Element {
  private let child: Element

  init(_ child: Element) {
    self.child = child
    super.init(gtk_scrolled_window_new())
    gtk_scrolled_window_set_child(cgtk_scrolled_window(widget), child.widget)
    gtk_scrolled_window_set_policy(
      cgtk_scrolled_window(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_widget_set_vexpand(widget, 1)
    // Only a container: the controls inside take the focus, and scroll it into view. Focusable,
    // it was an object without a name that assistive technologies offered.
    gtk_widget_set_focusable(widget, 0)
  }

  /// How far down the content is scrolled, in pixels.
  package var offset: Double {
    gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(cgtk_scrolled_window(widget)))
  }

  /// Scrolls down (or up) to `element`, a widget inside, once GTK has laid it out.
  func reveal(_ element: Element) {
    var frames = 0
    onEveryFrame { [weak self, weak element] in
      guard let self, let element else { return false }
      frames += 1
      // A widget just shown has its place from the frame after next: its first frame lays it out.
      // On a busy machine the scrolled length can settle a few frames later still, so the value
      // is set again on each of the next ten frames (about a sixth of a second).
      guard frames >= 2 else { return true }
      var origin = graphene_point_t(x: 0, y: 0)
      var point = graphene_point_t()
      if gtk_widget_compute_point(element.widget, self.child.widget, &origin, &point) != 0 {
        let adjustment = gtk_scrolled_window_get_vadjustment(cgtk_scrolled_window(self.widget))
        gtk_adjustment_set_value(adjustment, Double(point.y) - 12)  // GTK clamps it
      }
      return frames < 12
    }
  }
}

/// A form centred in the window and kept narrow, with a margin around it.
func formColumn(_ children: Element..., width: Int32 = 360, spacing: Int32 = 8) -> Box {
  let form = Box(GTK_ORIENTATION_VERTICAL, spacing: spacing, children).margin(24).size(width: width)
  gtk_widget_set_halign(form.widget, GTK_ALIGN_CENTER)
  gtk_widget_set_valign(form.widget, GTK_ALIGN_CENTER)
  return form
}

/// A window: the app's (libadwaita's application window, whose content includes its header
/// bar), or another window over it.
public final class Window: Element {
  /// The app's window for a GTK application, or one without an application, for tests.
  init(application: UnsafeMutablePointer<GtkApplication>?, title: String) {
    super.init(adw_application_window_new(application))
    gtk_window_set_title(cgtk_window(widget), title)
  }

  /// Wraps a window made elsewhere, such as one of libadwaita's.
  init(wrapping window: Widget) {
    super.init(window)
  }

  /// A window showing `child`, presented at once, for tests.
  package convenience init(showing child: Element) {
    self.init(application: nil, title: "")
    setChild(child)
    present()
  }

  /// Shows `child` as the window's whole content.
  func setChild(_ child: Element) {
    if cadw_is_application_window(widget) != 0 {
      adw_application_window_set_content(cadw_application_window(widget), child.widget)
    } else {
      gtk_window_set_child(cgtk_window(widget), child.widget)
    }
  }

  /// The window's title.
  package var title: String {
    get { gtk_window_get_title(cgtk_window(widget)).map { String(cString: $0) } ?? "" }
    set { gtk_window_set_title(cgtk_window(widget), newValue) }
  }

  /// Calls `handler` when the player closes the window (Escape, its close button), not when
  /// the app destroys it.
  func onClose(_ handler: @escaping () -> Void) {
    let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
    g_signal_connect_data(
      UnsafeMutableRawPointer(widget), "close-request",
      unsafeBitCast(closeTrampoline, to: GCallback.self), box, releaseSignalBox,
      GConnectFlags(rawValue: 0))
  }

  /// Asks `keepsOpen` when the player closes the window (its close button, Alt+F4); the window
  /// stays open while it answers true.
  func onCloseRequest(_ keepsOpen: @escaping () -> Bool) {
    let box = Unmanaged.passRetained(CloseBox(keepsOpen)).toOpaque()
    g_signal_connect_data(
      UnsafeMutableRawPointer(widget), "close-request",
      unsafeBitCast(closeRequestTrampoline, to: GCallback.self), box, releaseCloseBox,
      GConnectFlags(rawValue: 0))
  }

  /// Closes the window as the player would, for tests.
  package func close() { gtk_window_close(cgtk_window(widget)) }

  /// Sets the icon by its installed name.
  func setIcon(_ name: String) { gtk_window_set_icon_name(cgtk_window(widget), name) }

  /// Sets the size the window opens at.
  package func setDefaultSize(width: Int32, height: Int32) {
    gtk_window_set_default_size(cgtk_window(widget), width, height)
  }

  /// Makes the window a modal dialog over `parent`.
  func makeModal(over parent: Window) {
    gtk_window_set_transient_for(cgtk_window(widget), cgtk_window(parent.widget))
    gtk_window_set_modal(cgtk_window(widget), 1)
  }

  /// Shows the window and brings it to the front.
  package func present() { gtk_window_present(cgtk_window(widget)) }

  /// Closes the window.
  public func destroy() { gtk_window_destroy(cgtk_window(widget)) }

  /// Adds a style sheet for every window of the display; `false` without a display.
  static func addStyle(_ css: String) -> Bool {
    guard let display = gdk_display_get_default() else { return false }
    let provider = gtk_css_provider_new()
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    return true
  }
}

// MARK: - Signals

/// A handler that can be replaced after its signal is connected.
final class Callback {
  var body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}

/// Carries a Swift closure through a C signal's `user_data`.
private final class SignalBox {
  let handler: () -> Void
  init(_ handler: @escaping () -> Void) { self.handler = handler }
}

/// Carries a close request's handler, which says whether the window stays open.
private final class CloseBox {
  let keepsOpen: () -> Bool
  init(_ keepsOpen: @escaping () -> Bool) { self.keepsOpen = keepsOpen }
}

private nonisolated let releaseCloseBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = {
    data, _ in
    if let data { Unmanaged<CloseBox>.fromOpaque(data).release() }
  }

private nonisolated let closeRequestTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean =
  {
    _, data in
    guard let data else { return 0 }
    let box = Unmanaged<CloseBox>.fromOpaque(data).takeUnretainedValue()
    return MainActor.assumeIsolated { box.keepsOpen() } ? 1 : 0
  }

/// Carries a key handler through `key-pressed`'s `user_data`.
private final class KeyBox {
  let handler: (_ keyval: UInt32, _ modifiers: UInt32) -> Bool
  init(_ handler: @escaping (_ keyval: UInt32, _ modifiers: UInt32) -> Bool) {
    self.handler = handler
  }
}

// GTK emits signals on the main thread, where the main actor runs while GTK owns it.
private nonisolated let signalTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = {
  _, data in
  guard let data else { return }
  let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.handler() }
}

private nonisolated let keyTrampoline:
  @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
    _, keyval, _, modifiers, data in
    guard let data else { return 0 }
    let box = Unmanaged<KeyBox>.fromOpaque(data).takeUnretainedValue()
    let rawModifiers = modifiers.rawValue
    return MainActor.assumeIsolated { box.handler(keyval, rawModifiers) } ? 1 : 0
  }

private nonisolated let shortcutTrampoline:
  @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, _, data in
    guard let data else { return 0 }
    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
    return 1
  }

// `items-changed` passes the position and the counts removed and added, which are not needed.
private nonisolated let itemsChangedTrampoline:
  @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void = { _, _, _, _, data in
    guard let data else { return }
    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
  }

// `close-request` returns whether to keep the window open: never.
private nonisolated let closeTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = {
  _, data in
  guard let data else { return 0 }
  let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.handler() }
  return 0
}

private nonisolated let releaseSignalBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<SignalBox>.fromOpaque(data).release() }
  }

private nonisolated let releaseKeyBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<KeyBox>.fromOpaque(data).release() }
  }

private nonisolated let releaseShortcutBox: @convention(c) (gpointer?) -> Void = { data in
  if let data { Unmanaged<SignalBox>.fromOpaque(data).release() }
}

/// The widgets directly under `widget`, first to last.
package func children(of widget: Widget) -> [Widget] {
  var found: [Widget] = []
  var child = gtk_widget_get_first_child(widget)
  while let next = child {
    found.append(next)
    child = gtk_widget_get_next_sibling(next)
  }
  return found
}

/// `widget` and every widget under it, however deep.
package func widgetTree(_ widget: Widget) -> [Widget] {
  var found: [Widget] = []
  var pending = [widget]
  while let next = pending.popLast() {
    found.append(next)
    pending.append(contentsOf: children(of: next))
  }
  return found
}

/// Connects a closure to a signal whose handler takes only the instance and `user_data`; the
/// closure lives as long as the connection.
func connect(
  _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping () -> Void
) {
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  g_signal_connect_data(
    instance, signal, unsafeBitCast(signalTrampoline, to: GCallback.self), box, releaseSignalBox,
    GConnectFlags(rawValue: 0))
}

/// Connects a closure to a list model's `items-changed`, whatever changed; the closure lives as
/// long as the connection.
func connectItemsChanged(_ model: UnsafeMutableRawPointer, _ handler: @escaping () -> Void) {
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  g_signal_connect_data(
    model, "items-changed", unsafeBitCast(itemsChangedTrampoline, to: GCallback.self), box,
    releaseSignalBox, GConnectFlags(rawValue: 0))
}

private func connectKey(
  _ controller: UnsafeMutableRawPointer?,
  _ handler: @escaping (_ keyval: UInt32, _ modifiers: UInt32) -> Bool
) {
  let box = Unmanaged.passRetained(KeyBox(handler)).toOpaque()
  g_signal_connect_data(
    controller, "key-pressed", unsafeBitCast(keyTrampoline, to: GCallback.self), box,
    releaseKeyBox, GConnectFlags(rawValue: 0))
}

private func callbackAction(_ handler: @escaping () -> Void) -> OpaquePointer {
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  return gtk_callback_action_new(shortcutTrampoline, box, releaseShortcutBox)
}
