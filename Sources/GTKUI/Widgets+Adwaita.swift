import AppCore
import CAdw
import CGTK

// libadwaita's widgets, wrapped as Widgets.swift wraps GTK's: each owns its widget and the
// closures connected to it. Only what libadwaita 1.2 (Debian 12) has is used.

// MARK: - Header bar

/// The bar at the top of a window: the title, buttons at the start and at the end.
package final class HeaderBar: Element {
  /// The title in the middle, with a line under it.
  package let title = WindowTitle()

  init() {
    super.init(adw_header_bar_new())
    adw_header_bar_set_title_widget(cadw_header_bar(widget), title.widget)
  }

  /// Adds a button at the start (the left, in left-to-right languages).
  func packStart(_ child: Element) {
    adw_header_bar_pack_start(cadw_header_bar(widget), child.widget)
  }

  /// Adds a button at the end.
  func packEnd(_ child: Element) { adw_header_bar_pack_end(cadw_header_bar(widget), child.widget) }
}

/// A window's title and subtitle, centred in its header bar.
package final class WindowTitle: Element {
  init() {
    super.init(adw_window_title_new("", ""))
  }

  /// The title.
  package var title: String {
    get { String(cString: adw_window_title_get_title(cadw_window_title(widget))) }
    set { if title != newValue { adw_window_title_set_title(cadw_window_title(widget), newValue) } }
  }

  /// The line under the title; empty hides it.
  package var subtitle: String {
    get { String(cString: adw_window_title_get_subtitle(cadw_window_title(widget))) }
    set {
      if subtitle != newValue { adw_window_title_set_subtitle(cadw_window_title(widget), newValue) }
    }
  }
}

extension Element {
  /// The text shown when the pointer rests on the widget.
  package var tooltip: String? {
    get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
    set { if tooltip != newValue { gtk_widget_set_tooltip_text(widget, newValue) } }
  }

  /// Sets the vertical alignment: centred, as a row's suffix wants.
  @discardableResult
  func verticallyCentered() -> Self {
    gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
    return self
  }
}

extension Button {
  /// A button showing an icon, named for assistive technologies and in its tooltip.
  convenience init(icon: String, name: String, action: @escaping () -> Void = {}) {
    self.init(label: "", action: action)
    gtk_button_set_icon_name(cgtk_button(widget), icon)
    accessibleName = name
    tooltip = name
  }
}

// MARK: - The primary menu

/// A menu: labels bound to actions of the window (`win.name`).
package final class Menu {
  let model: OpaquePointer

  init() {
    guard let menu = g_menu_new() else { preconditionFailure("GLib made no menu") }
    model = menu
  }

  isolated deinit {
    g_object_unref(UnsafeMutableRawPointer(model))
  }

  /// Adds an entry that activates the window's action `name`.
  func append(_ label: String, action name: String) {
    g_menu_append(model, label, "win.\(name)")
  }

  /// Adds a section: entries set apart by a line.
  func appendSection(_ section: Menu) {
    g_menu_append_section(model, nil, cadw_menu_model(UnsafeMutableRawPointer(section.model)))
  }
}

/// The button that opens the primary menu.
package final class MenuButton: Element {
  private let menu: Menu

  init(icon: String, name: String, menu: Menu) {
    self.menu = menu
    super.init(gtk_menu_button_new())
    let button = cadw_menu_button(widget)
    gtk_menu_button_set_icon_name(button, icon)
    gtk_menu_button_set_menu_model(button, cadw_menu_model(UnsafeMutableRawPointer(menu.model)))
    // F10 opens it, as in every GNOME application.
    gtk_menu_button_set_primary(button, 1)
    accessibleName = name
    tooltip = name
  }

  /// Opens the menu.
  func popup() { gtk_menu_button_popup(cadw_menu_button(widget)) }
}

/// A window's actions, by name: what menu entries and shortcuts trigger (`win.name`).
package final class Actions {
  private let map: UnsafeMutableRawPointer
  private var actions: [String: OpaquePointer] = [:]

  /// The actions of `window`, an application window (which keeps them as `win.name`).
  init(of window: Window) {
    map = UnsafeMutableRawPointer(window.widget)
  }

  isolated deinit {
    for action in actions.values { g_object_unref(UnsafeMutableRawPointer(action)) }
  }

  /// Adds the action `name`, which calls `handler`.
  func add(_ name: String, _ handler: @escaping () -> Void) {
    guard let action = g_simple_action_new(name, nil) else {
      preconditionFailure("GLib made no action \(name)")
    }
    connectWithArgument(UnsafeMutableRawPointer(action), "activate") { _ in handler() }
    g_action_map_add_action(cadw_action_map(map), cadw_action(UnsafeMutableRawPointer(action)))
    actions[name] = action
  }

  /// Whether the action `name` (and so its menu entry) does something now.
  package func isEnabled(_ name: String) -> Bool {
    actions[name].map { g_action_get_enabled(cadw_action(UnsafeMutableRawPointer($0))) != 0 }
      ?? false
  }

  /// Enables or disables the action `name`.
  func setEnabled(_ name: String, _ isEnabled: Bool) {
    guard let action = actions[name], self.isEnabled(name) != isEnabled else { return }
    g_simple_action_set_enabled(action, isEnabled ? 1 : 0)
  }

  /// Triggers the action `name` as its menu entry would, for tests.
  package func activate(_ name: String) {
    guard let action = actions[name] else { return }
    g_action_activate(cadw_action(UnsafeMutableRawPointer(action)), nil)
  }
}

// MARK: - Toasts

/// Shows short messages over its child, one after another.
package final class ToastOverlay: Element {
  /// Every message shown so far, oldest first, for tests.
  package private(set) var shown: [String] = []

  /// The height a toast and its margin take at the bottom of the window: a screen with its
  /// buttons at the bottom leaves it free, so that a toast never covers them.
  static let clearance: Int32 = 80

  /// The overlay's children as GTK keeps them, watched: each toast shows as a new child.
  private var watchedChildren: OpaquePointer?

  /// The name of a toast's close button, which libadwaita 1.2 leaves without one: assistive
  /// technologies read it as "GtkImage".
  package static let dismissName = "Dismiss"

  init(_ child: Element) {
    super.init(adw_toast_overlay_new())
    adw_toast_overlay_set_child(cadw_toast_overlay(widget), child.widget)
    let watched = gtk_widget_observe_children(widget)
    watchedChildren = watched
    if let watched {
      connectItemsChanged(UnsafeMutableRawPointer(watched)) { [weak self] in
        self?.nameCloseButtons()
      }
    }
  }

  isolated deinit {
    if let watchedChildren { g_object_unref(UnsafeMutableRawPointer(watchedChildren)) }
    if let current { g_object_unref(UnsafeMutableRawPointer(current)) }
  }

  /// The close buttons of the toasts shown: buttons showing only the close icon (a toast's
  /// other button, for an action, shows a label) under the overlay's children but its content.
  package var closeButtons: [Widget] {
    let content = adw_toast_overlay_get_child(cadw_toast_overlay(widget))
    return children(of: widget).filter { $0 != content }.flatMap(widgetTree).filter { button in
      guard cgtk_is_button(button) != 0,
        let icon = gtk_button_get_icon_name(cgtk_button(button))
      else { return false }
      return String(cString: icon) == "window-close-symbolic"
    }
  }

  /// Names every close button of the toasts shown that has no name yet.
  private func nameCloseButtons() {
    for button in closeButtons where cgtk_accessible_label(button) == nil {
      cgtk_set_accessible_label(button, Self.dismissName)
    }
  }

  /// An overlay over nothing, for tests.
  package convenience init() {
    self.init(Box.column())
  }

  /// The toast on screen, held until it is dismissed: each new sentence takes its place in it.
  private var current: OpaquePointer?
  /// The sentences said and dismissals asked so far, so that only the latest one's timer
  /// dismisses the toast.
  private var sentences = 0
  /// The sentence the toast on screen says.
  private var saying: String?
  /// When the toast on screen came.
  private var arrivedAt = ContinuousClock.now
  /// How long a toast is left to come in before it may be dismissed: libadwaita 1.2 crashes
  /// when a toast dismissed while it comes in is followed by another (Undo and Redo pressed
  /// in turn, 20 to 60 ms apart).
  static let settling: Duration = .seconds(1)
  /// How long a toast stays after its latest sentence.
  package var duration: Duration = .seconds(5)

  /// The titles of the toasts on screen, for tests.
  package var titlesShowing: [String] {
    let content = adw_toast_overlay_get_child(cadw_toast_overlay(widget))
    return children(of: widget).filter { $0 != content }.flatMap(widgetTree).compactMap {
      cgtk_label_text($0).map { String(cString: $0) }
    }.filter { !$0.isEmpty }
  }

  /// Shows `text` for `duration`, in place of the sentence before: like a status line, the
  /// overlay says the latest, which would otherwise wait for the one before to time out
  /// ("2 moves taken back." still showing after Redo had put them back).
  ///
  /// The toast on screen takes the new sentence as its title, and is dismissed `duration`
  /// after the last one. A toast dismissed and another added for each sentence crashed
  /// libadwaita 1.2 within a second when sentences came 40 ms apart (Undo held down), as each
  /// replaced one still coming in or going out.
  package func show(_ text: String) {
    shown.append(text)
    saying = text
    // A toast's title is Pango markup in libadwaita 1.2, with no way to turn that off.
    let title = markupEscaped(text)
    if let current {
      adw_toast_set_title(current, title)
    } else {
      guard let toast = adw_toast_new(title) else { return }
      adw_toast_set_timeout(toast, 0)
      // The overlay holds the toast until it has gone; this reference, until it is dismissed.
      g_object_ref(UnsafeMutableRawPointer(toast))
      current = toast
      connect(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] in
        self?.forget(toast)
      }
      arrivedAt = .now
      adw_toast_overlay_add_toast(cadw_toast_overlay(widget), toast)
    }
    dismiss(after: duration)
  }

  /// Dismisses the toast on screen if it says `text`: what it says no longer holds.
  ///
  /// A toast still coming in goes once it has settled, unless another sentence takes it first.
  package func dismiss(saying text: String) {
    guard current != nil, saying == text else { return }
    dismiss(after: max(.zero, arrivedAt + Self.settling - .now))
  }

  /// Dismisses the toast on screen after `wait`, unless a sentence comes first.
  private func dismiss(after wait: Duration) {
    sentences += 1
    let sentence = sentences
    Task { [weak self] in
      if wait > .zero { try? await Task.sleep(for: wait) }
      guard let self, sentences == sentence, let current else { return }
      adw_toast_dismiss(current)
    }
  }

  /// Lets go of `toast` once dismissed, by its close button or after its time.
  private func forget(_ toast: OpaquePointer) {
    guard current == toast else { return }
    current = nil
    g_object_unref(UnsafeMutableRawPointer(toast))
  }
}

// MARK: - Pages and boxed lists

extension Element {
  /// Keeps the list boxes and scrolled windows a libadwaita widget builds inside itself out of
  /// the focus chain: the widgets in them take the focus, and they have no name to give.
  func makeInnerContainersUnfocusable() {
    for inner in widgetTree(widget).dropFirst()
    where cgtk_is_list_box(inner) != 0 || cgtk_is_scrolled_window(inner) != 0 {
      gtk_widget_set_focusable(inner, 0)
    }
  }
}

/// A page for an empty or a finished state: an icon, a title and a sentence, centred.
package final class StatusPage: Element {
  init(icon: String) {
    super.init(adw_status_page_new())
    adw_status_page_set_icon_name(cadw_status_page(widget), icon)
    // Its scrolled window held nothing to focus, so it was a Tab stop of its own, unnamed.
    makeInnerContainersUnfocusable()
  }

  /// The title under the icon.
  package var title: String {
    get { adw_status_page_get_title(cadw_status_page(widget)).map { String(cString: $0) } ?? "" }
    set { if title != newValue { adw_status_page_set_title(cadw_status_page(widget), newValue) } }
  }

  /// The sentence under the title, shown as it is (libadwaita reads it as markup: it is
  /// escaped).
  package var detail = "" {
    didSet {
      if detail != oldValue {
        adw_status_page_set_description(cadw_status_page(widget), markupEscaped(detail))
      }
    }
  }
}

/// A titled group of rows, drawn as one rounded card (a boxed list).
package final class BoxedList: Element {
  init(title: String = "", _ rows: [Element] = []) {
    super.init(adw_preferences_group_new())
    // Set in the initializer, the title calls no observer: it is shown here.
    self.title = title
    showTitle()
    for row in rows { add(row) }
    // Its list is only a container: its rows take the focus. Focusable, a list without a title
    // was an object that assistive technologies could only name by its class.
    makeInnerContainersUnfocusable()
  }

  /// Adds a row.
  func add(_ row: Element) { adw_preferences_group_add(cadw_preferences_group(widget), row.widget) }

  /// The group's title, shown as it is (libadwaita reads it as markup: it is escaped).
  package var title = "" {
    didSet { if title != oldValue { showTitle() } }
  }

  private func showTitle() {
    adw_preferences_group_set_title(cadw_preferences_group(widget), markupEscaped(title))
  }

  /// Removes a row added before.
  func remove(_ row: Element) {
    adw_preferences_group_remove(cadw_preferences_group(widget), row.widget)
  }

  /// Shows a widget at the end of the group's title, such as a button.
  func setHeaderSuffix(_ suffix: Element) {
    adw_preferences_group_set_header_suffix(cadw_preferences_group(widget), suffix.widget)
  }
}

/// A row with a title, an optional line under it, and widgets at its end.
package final class ActionRow: Element {
  init(title: String, subtitle: String = "") {
    super.init(adw_action_row_new())
    // Its title and subtitle hold names: plain text, never Pango markup.
    adw_preferences_row_set_use_markup(cadw_preferences_row(widget), 0)
    self.title = title
    self.subtitle = subtitle
  }

  /// The row's title.
  package var title: String {
    get {
      adw_preferences_row_get_title(cadw_preferences_row(widget)).map { String(cString: $0) } ?? ""
    }
    set {
      if title != newValue { adw_preferences_row_set_title(cadw_preferences_row(widget), newValue) }
    }
  }

  /// The line under the title; empty hides it.
  package var subtitle: String {
    get { adw_action_row_get_subtitle(cadw_action_row(widget)).map { String(cString: $0) } ?? "" }
    set {
      if subtitle != newValue { adw_action_row_set_subtitle(cadw_action_row(widget), newValue) }
    }
  }

  /// Adds a widget at the row's end.
  @discardableResult
  func addSuffix(_ suffix: Element) -> Self {
    adw_action_row_add_suffix(cadw_action_row(widget), suffix.verticallyCentered().widget)
    return self
  }

  /// Makes a click anywhere on the row press `target`, which keeps its own accessible name.
  func activates(_ target: Element) {
    adw_action_row_set_activatable_widget(cadw_action_row(widget), target.widget)
    // libadwaita labels the target by the row's title too, and GTK 4.8 joins both: a target
    // named as the row was named twice ("Ada vs Bob: … Ada vs Bob: …").
    if target.accessibleName != nil {
      gtk_accessible_reset_relation(
        OpaquePointer(target.widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
    }
  }
}

/// A row offering one of several texts in a drop-down list.
package final class ComboRow: Element {
  /// Called with the index the player chose.
  var onSelect: (Int) -> Void = { _ in }
  private var isSetting = false
  private var items: [String] = []

  init(title: String) {
    super.init(adw_combo_row_new())
    adw_preferences_row_set_title(cadw_preferences_row(widget), title)
    connectWithArgument(widget, "notify::selected") { [weak self] _ in
      guard let self, !self.isSetting, let index = self.selected else { return }
      self.onSelect(index)
    }
  }

  /// The texts offered, in order.
  package var choices: [String] {
    get { items }
    set {
      guard items != newValue else { return }
      items = newValue
      isSetting = true
      let list = gtk_string_list_new(nil)
      for item in newValue { gtk_string_list_append(list, item) }
      adw_combo_row_set_model(
        cadw_combo_row(widget), cadw_list_model(UnsafeMutableRawPointer(list)))
      g_object_unref(UnsafeMutableRawPointer(list))
      isSetting = false
    }
  }

  /// The line under the title.
  package var subtitle: String {
    get { adw_action_row_get_subtitle(cadw_action_row(widget)).map { String(cString: $0) } ?? "" }
    set { adw_action_row_set_subtitle(cadw_action_row(widget), newValue) }
  }

  /// The index chosen, or `nil` when none is; setting it does not call ``onSelect``.
  package var selected: Int? {
    get {
      let index = adw_combo_row_get_selected(cadw_combo_row(widget))
      return index == UInt32(GTK_INVALID_LIST_POSITION) ? nil : Int(index)
    }
    set {
      guard selected != newValue else { return }
      isSetting = true
      adw_combo_row_set_selected(
        cadw_combo_row(widget), newValue.map { UInt32($0) } ?? UInt32(GTK_INVALID_LIST_POSITION))
      isSetting = false
    }
  }

  /// Chooses `index` as a player would, for tests: ``onSelect`` hears it.
  package func choose(_ index: Int) {
    adw_combo_row_set_selected(cadw_combo_row(widget), UInt32(index))
  }
}

/// A row of a boxed list holding any widget, for controls that have no row of their own.
package final class WidgetRow: Element {
  init(_ child: Element) {
    super.init(adw_preferences_row_new())
    gtk_list_box_row_set_child(cadw_list_box_row(widget), child.margin(6).widget)
    gtk_list_box_row_set_activatable(cadw_list_box_row(widget), 0)
    // The widgets inside take the focus; the row itself has no name to give.
    gtk_widget_set_focusable(widget, 0)
  }
}

/// A row holding a captioned text field, for fields an entry row cannot be (a password field
/// that assistive technologies know as one).
package final class FieldRow: Element {
  /// The field.
  package let field: Entry

  init(caption: String, field: Entry) {
    self.field = field
    let label = Label(caption, wraps: false).classes("caption", "dim-label")
    field.accessibleName = caption
    field.classes("flat")
    let column = Box.column(spacing: 0, label, field)
    gtk_widget_set_margin_start(label.widget, 6)
    super.init(adw_preferences_row_new())
    gtk_list_box_row_set_child(cadw_list_box_row(widget), column.margin(6).widget)
    gtk_list_box_row_set_activatable(cadw_list_box_row(widget), 0)
    // The field takes the focus; the row was a second, silent Tab stop before it.
    gtk_widget_set_focusable(widget, 0)
  }
}

// MARK: - Dialogs

/// A question in a small window over another: a heading, a sentence and answers.
package final class MessageDialog: Element {
  /// How an answer looks: the usual, the one suggested, or one that destroys something.
  enum Style {
    case plain
    case suggested
    case destructive
  }

  /// Called with the id of the answer chosen; closing the dialog answers `cancel`.
  var onResponse: (String) -> Void = { _ in }

  /// Creates the dialog; `cancel` is the answer Escape gives, `preferred` the one Enter gives.
  init(
    over parent: Window?, heading: String, body: String,
    answers: [(id: String, label: String, style: Style)], cancel: String, preferred: String
  ) {
    super.init(
      adw_message_dialog_new(parent.map { cgtk_window($0.widget) }, heading, body))
    let dialog = cadw_message_dialog(widget)
    for answer in answers {
      adw_message_dialog_add_response(dialog, answer.id, answer.label)
      switch answer.style {
      case .plain: break
      case .suggested:
        adw_message_dialog_set_response_appearance(dialog, answer.id, ADW_RESPONSE_SUGGESTED)
      case .destructive:
        adw_message_dialog_set_response_appearance(dialog, answer.id, ADW_RESPONSE_DESTRUCTIVE)
      }
    }
    adw_message_dialog_set_close_response(dialog, cancel)
    adw_message_dialog_set_default_response(dialog, preferred)
    connectWithArgument(widget, "response") { [weak self] response in
      guard let response else { return }
      self?.onResponse(String(cString: response.assumingMemoryBound(to: CChar.self)))
    }
    // GTK 4.8 names a button with a mnemonic by its raw text and its label's again; name each
    // answer once, as it reads.
    nameButtons(under: widget)
  }

  /// The question.
  package var heading: String {
    adw_message_dialog_get_heading(cadw_message_dialog(widget)).map { String(cString: $0) } ?? ""
  }

  /// The sentence under the question.
  package var body: String {
    adw_message_dialog_get_body(cadw_message_dialog(widget)).map { String(cString: $0) } ?? ""
  }

  /// Shows the dialog.
  func present() { gtk_window_present(cgtk_window(widget)) }

  /// Closes the dialog without answering.
  func close() { gtk_window_destroy(cgtk_window(widget)) }

  /// Gives one of a question's answers as a click would, for tests.
  package func respond(_ answer: AskedQuestion.Answer) {
    adw_message_dialog_response(cadw_message_dialog(widget), answer.rawValue)
  }

  private func nameButtons(under parent: Widget) {
    var child = gtk_widget_get_first_child(parent)
    while let current = child {
      if cadw_is_button(current) != 0, let label = gtk_button_get_label(cgtk_button(current)) {
        cgtk_name_mnemonic_button(current, String(cString: label).replacing("_", with: ""))
      }
      nameButtons(under: current)
      child = gtk_widget_get_next_sibling(current)
    }
  }
}

/// A yes-or-no question the core asks, as a message dialog asks it: one answer keeps things as
/// they are (Escape, Enter and closing the dialog give it), the other acts.
struct Question {
  var heading: String
  var body: String
  /// The answer that keeps things as they are.
  var keep: String
  /// The answer that acts, and how it looks: destructive when it loses something.
  var act: String
  var actStyle: MessageDialog.Style = .destructive
}

/// The dialog that asks the core's question while the core asks it: opened when the question
/// appears, closed unanswered when the core stops asking (another window answered, or the
/// screen changed), and forgotten once answered.
package final class AskedQuestion {
  /// The ids of a question's two answers, for `MessageDialog.respond(_:)`.
  package enum Answer: String {
    case keep
    case act
  }

  /// The dialog, while it is open.
  package private(set) var dialog: MessageDialog?
  private let parent: Window?

  /// Asks over `parent`.
  init(over parent: Window?) { self.parent = parent }

  /// Closes the dialog left open, unanswered, when the view that asks goes.
  isolated deinit {
    dialog?.onResponse = { _ in }
    dialog?.close()
  }

  /// Shows `question` while it is not `nil`, and sends the action of the answer chosen.
  ///
  /// - Parameters:
  ///   - question: The question, or `nil` once the core no longer asks it.
  ///   - actions: The action each answer sends.
  ///   - send: Where the action goes.
  func render<Action>(
    _ question: Question?, actions: (keep: Action, act: Action),
    send: @escaping (Action) -> Void
  ) {
    guard let question else {
      dialog?.onResponse = { _ in }
      dialog?.close()
      dialog = nil
      return
    }
    guard dialog == nil else { return }
    let dialog = MessageDialog(
      over: parent, heading: question.heading, body: question.body,
      answers: [
        (Answer.keep.rawValue, question.keep, .plain),
        (Answer.act.rawValue, question.act, question.actStyle),
      ], cancel: Answer.keep.rawValue, preferred: Answer.keep.rawValue)
    dialog.onResponse = { [weak self] response in
      // The dialog closes itself after an answer.
      self?.dialog = nil
      send(response == Answer.act.rawValue ? actions.act : actions.keep)
    }
    self.dialog = dialog
    dialog.present()
  }
}

/// The About window: the program's name, version, what it is and who makes it.
package enum AboutWindow {
  /// Opens the window over `parent`.
  static func present(over parent: Window, icon: String) -> Window {
    let window = Window(wrapping: adw_about_window_new())
    let about = cadw_about_window(window.widget)
    adw_about_window_set_application_name(about, AppInfo.name)
    adw_about_window_set_application_icon(about, icon)
    adw_about_window_set_version(about, AppInfo.version)
    adw_about_window_set_comments(about, AppInfo.summary)
    adw_about_window_set_developer_name(about, AppInfo.developers)
    adw_about_window_set_copyright(about, AppInfo.copyright)
    window.makeModal(over: parent)
    window.present()
    return window
  }
}

/// The Preferences window: groups of rows.
package final class PreferencesWindow {
  /// The window.
  let window: Window
  private let page: Widget

  init(over parent: Window, title: String) {
    window = Window(wrapping: adw_preferences_window_new())
    window.title = title
    page = adw_preferences_page_new()
    adw_preferences_window_add(
      cadw_preferences_window(window.widget), cadw_preferences_page(page))
    window.makeModal(over: parent)
  }

  /// Shows a short message over the window.
  func show(_ text: String) {
    guard let toast = adw_toast_new(markupEscaped(text)) else { return }
    adw_preferences_window_add_toast(cadw_preferences_window(window.widget), toast)
  }

  /// Adds a group of rows.
  func add(_ group: BoxedList) {
    adw_preferences_page_add(cadw_preferences_page(page), cadw_preferences_group(group.widget))
  }
}

/// A window listing keyboard shortcuts in groups, as GNOME applications show them.
package enum ShortcutsWindow {
  /// Opens the window over `parent`.
  ///
  /// - Parameters:
  ///   - parent: The app's window, which the new one stays over.
  ///   - title: The window's title.
  ///   - groups: Each group's title and its shortcuts: what the keys do, and the keys in GTK's
  ///     accelerator syntax (`<Control>z`, several separated by spaces).
  /// - Returns: The window, shown.
  static func present(
    over parent: Window, title: String, groups: [(title: String, shortcuts: [(String, String)])]
  ) -> Window {
    var xml = """
      <interface><object class="GtkShortcutsWindow" id="shortcuts">\
      <property name="modal">1</property><property name="title">\(escaped(title))</property>\
      <child><object class="GtkShortcutsSection"><property name="section-name">main</property>
      """
    for group in groups {
      xml += "<child><object class=\"GtkShortcutsGroup\">"
      xml += "<property name=\"title\">\(escaped(group.title))</property>"
      for (what, keys) in group.shortcuts {
        xml += "<child><object class=\"GtkShortcutsShortcut\">"
        xml += "<property name=\"title\">\(escaped(what))</property>"
        xml += "<property name=\"accelerator\">\(escaped(keys))</property></object></child>"
      }
      xml += "</object></child>"
    }
    xml += "</object></child></object></interface>"
    let builder = gtk_builder_new_from_string(xml, -1)
    defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
    guard let built = cadw_builder_widget(builder, "shortcuts") else {
      preconditionFailure("the shortcuts window's description is GTK's own format")
    }
    let window = Window(wrapping: built)
    window.makeModal(over: parent)
    window.present()
    return window
  }

  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}

// MARK: - Style

/// Light or dark for every window, as libadwaita's style manager applies it.
package enum StyleManager {
  /// Applies `appearance` at once.
  static func apply(_ appearance: Appearance) {
    let scheme: AdwColorScheme =
      switch appearance {
      case .system: ADW_COLOR_SCHEME_DEFAULT
      case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
      case .dark: ADW_COLOR_SCHEME_FORCE_DARK
      }
    adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
  }

  /// Whether windows are dark now.
  package static var isDark: Bool {
    adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
  }
}

// MARK: - Signals with an argument

/// Carries a closure that takes a signal's one pointer argument.
private final class ArgumentBox {
  let handler: (UnsafeMutableRawPointer?) -> Void
  init(_ handler: @escaping (UnsafeMutableRawPointer?) -> Void) { self.handler = handler }
}

private nonisolated let argumentTrampoline:
  @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    guard let data else { return }
    nonisolated(unsafe) let value = argument
    let box = Unmanaged<ArgumentBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler(value) }
  }

private nonisolated let releaseArgumentBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<ArgumentBox>.fromOpaque(data).release() }
  }

/// Connects a closure to a signal whose handler takes the instance, one pointer (a response's
/// id, an action's parameter, a property's description) and `user_data`.
func connectWithArgument(
  _ instance: UnsafeMutableRawPointer, _ signal: String,
  _ handler: @escaping (UnsafeMutableRawPointer?) -> Void
) {
  let box = Unmanaged.passRetained(ArgumentBox(handler)).toOpaque()
  g_signal_connect_data(
    instance, signal, unsafeBitCast(argumentTrampoline, to: GCallback.self), box,
    releaseArgumentBox, GConnectFlags(rawValue: 0))
}

// MARK: - Names for the toolkit's own buttons

extension Window {
  /// Names the buttons GTK and libadwaita build into their own windows without a name, which
  /// assistive technologies read as `GtkImage` or `GtkButton`: the search button of Preferences
  /// and of the keyboard help, the version button of About.
  ///
  /// A button showing text is named by it (the version as `Version 0.1.0`); one showing only
  /// an icon, by what the icon stands for.
  func nameUnnamedButtons() {
    for button in widgetTree(widget)
    where cgtk_is_button(button) != 0 && cgtk_accessible_label(button) == nil {
      let inside = widgetTree(button)
      if let text = inside.lazy.compactMap({ cgtk_label_text($0).map { String(cString: $0) } })
        .first(where: { $0.contains { !$0.isWhitespace } })
      {
        cgtk_set_accessible_label(button, text == AppInfo.version ? "Version \(text)" : text)
      } else if let icon = inside.lazy.compactMap({ cgtk_image_icon_name($0) }).first
        ?? gtk_button_get_icon_name(cgtk_button(button))
      {
        cgtk_set_accessible_label(button, Self.iconTitle(String(cString: icon)))
      }
    }
  }

  /// What an icon on a button stands for: `Search` for `system-search-symbolic`, and for
  /// others the icon's name in words.
  static func iconTitle(_ icon: String) -> String {
    let known = [
      "system-search-symbolic": "Search", "edit-find-symbolic": "Search",
      "window-close-symbolic": "Close", "go-previous-symbolic": "Back",
      "go-next-symbolic": "Forward", "open-menu-symbolic": "Main Menu",
    ]
    if let title = known[icon] { return title }
    let name = icon.hasSuffix("-symbolic") ? icon.dropLast("-symbolic".count) : Substring(icon)
    let words = name.split(separator: "-").joined(separator: " ")
    return words.prefix(1).uppercased() + words.dropFirst()
  }
}
