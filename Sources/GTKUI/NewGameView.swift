import CGTK
import GameCore
import GameRules
public import NewGameCore

/// The New game screen: players, mode, the computer's side and strength, board, who starts.
public final class NewGameView {
  /// The screen's top widget.
  public let root: Widget
  /// X's name.
  public let xNameEntry: Widget
  /// O's name.
  public let oNameEntry: Widget
  /// The Let's play! button.
  public let letsPlayButton: Widget
  /// Show the stats.
  public let statsButton: Widget
  /// Sign out, or back to Sign in for a guest.
  public let signOutButton: Widget
  /// The board's side.
  public let sizeSpin: Widget
  /// How many in a row win.
  public let kSpin: Widget

  private let titleLabel: Widget
  private let accountLabel: Widget
  private let resumeBar: Widget
  private let resumeLabel: Widget
  private let validationLabel: Widget
  private let errorLabel: Widget
  private let modeChoice: ChoiceGroup<GameMode>
  private let computerChoice: ChoiceGroup<Mark>
  private let difficultyChoice: ChoiceGroup<Difficulty>
  private let startChoice: ChoiceGroup<StartingRule>
  private let computerRow: [Widget]
  private let difficultyRow: [Widget]
  private var isRendering = false

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (NewGame.Action.View) -> Void) {
    var rendering: () -> Bool = { false }
    let guarded: (NewGame.Action.View) -> Void = { action in
      if !rendering() { send(action) }
    }
    titleLabel = makeLabel(classes: ["title"])
    accountLabel = makeLabel(classes: ["dim-label"])
    resumeLabel = makeLabel()
    let resumeButton = makeButton("_Resume") { send(.resumeTapped) }
    let discardButton = makeButton("_Discard") { send(.discardResumeTapped) }
    resumeBar = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [resumeLabel, resumeButton, discardButton])
    gtk_widget_add_css_class(resumeBar, "resume")
    setVisible(resumeBar, false)

    xNameEntry = makeEntry(
      placeholder: "Name",
      onChange: { guarded(.xNameChanged($0)) }, onActivate: { send(.letsPlayTapped) })
    oNameEntry = makeEntry(
      placeholder: "Name",
      onChange: { guarded(.oNameChanged($0)) }, onActivate: { send(.letsPlayTapped) })
    modeChoice = ChoiceGroup(
      GameMode.allCases.map { ($0, $0.title, $0.title) }, onSelect: { guarded(.modeChanged($0)) })
    computerChoice = ChoiceGroup(
      Mark.allCases.map { ($0, $0.symbol, "Computer plays \($0.symbol)") },
      onSelect: { guarded(.computerMarkChanged($0)) })
    difficultyChoice = ChoiceGroup(
      Difficulty.named.map {
        ($0.difficulty, $0.difficulty.displayName, $0.difficulty.displayName)
      },
      onSelect: { guarded(.difficultyChanged($0)) })
    startChoice = ChoiceGroup(
      StartingRule.allCases.map { ($0, $0.title, $0.title) },
      onSelect: { guarded(.startingRuleChanged($0)) })
    sizeSpin = gtk_spin_button_new_with_range(
      Double(Board.minimumSide), Double(Board.maximumSide), 1)
    kSpin = gtk_spin_button_new_with_range(3, Double(Board.maximumSide), 1)
    connect(sizeSpin, "value-changed") { [sizeSpin] in
      guarded(.sizeChanged(Int(gtk_spin_button_get_value_as_int(cgtk_spin_button(sizeSpin)))))
    }
    connect(kSpin, "value-changed") { [kSpin] in
      guarded(.kChanged(Int(gtk_spin_button_get_value_as_int(cgtk_spin_button(kSpin)))))
    }
    validationLabel = makeLabel(classes: ["dim-label"])
    errorLabel = makeLabel(classes: ["error"])
    setVisible(errorLabel, false)
    letsPlayButton = makeButton("_Let's play!") { send(.letsPlayTapped) }
    gtk_widget_add_css_class(letsPlayButton, "suggested-action")
    statsButton = makeButton("S_tats") { send(.statsTapped) }
    signOutButton = makeButton("Sign _out") { send(.signOutTapped) }

    let form: Widget = gtk_grid_new()
    gtk_grid_set_row_spacing(cgtk_grid(form), 8)
    gtk_grid_set_column_spacing(cgtk_grid(form), 12)
    var row: Int32 = 0
    func addRow(_ title: String, _ control: Widget, mnemonicFor target: Widget? = nil) -> [Widget] {
      let label = makeLabel(title)
      gtk_label_set_wrap(cgtk_label(label), 0)
      if let target {
        gtk_label_set_use_underline(cgtk_label(label), 1)
        gtk_label_set_mnemonic_widget(cgtk_label(label), target)
      }
      gtk_grid_attach(cgtk_grid(form), label, 0, row, 1, 1)
      gtk_grid_attach(cgtk_grid(form), control, 1, row, 1, 1)
      row += 1
      return [label, control]
    }
    _ = addRow("_X player", xNameEntry, mnemonicFor: xNameEntry)
    _ = addRow("_O player", oNameEntry, mnemonicFor: oNameEntry)
    _ = addRow("Mode", modeChoice.box)
    computerRow = addRow("Computer plays", computerChoice.box)
    difficultyRow = addRow("Difficulty", difficultyChoice.box)
    _ = addRow("_Board size", sizeSpin, mnemonicFor: sizeSpin)
    _ = addRow("_In a row to win", kSpin, mnemonicFor: kSpin)
    _ = addRow("Who starts", startChoice.box)

    let actions = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [letsPlayButton, statsButton, signOutButton])
    let content = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 12,
      [titleLabel, accountLabel, resumeBar, form, validationLabel, actions, errorLabel])
    layOutForm(content)
    gtk_widget_set_size_request(content, 480, -1)
    root = gtk_scrolled_window_new()
    gtk_scrolled_window_set_child(cgtk_scrolled_window(root), content)
    gtk_scrolled_window_set_policy(
      cgtk_scrolled_window(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_widget_set_vexpand(root, 1)
    rendering = { [weak self] in self?.isRendering ?? false }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: NewGame.State) {
    isRendering = true
    defer { isRendering = false }
    setText(titleLabel, state.title)
    setText(accountLabel, state.accountLine)
    setMessage(resumeLabel, state.resumeMessage)
    setVisible(resumeBar, state.resumeMessage != nil)
    setEditableText(xNameEntry, state.xName)
    setEditableText(oNameEntry, state.oName)
    modeChoice.select(state.mode)
    computerChoice.select(state.computerMark)
    difficultyChoice.select(state.difficulty)
    startChoice.select(state.startingRule)
    for widget in computerRow { setSensitive(widget, state.isComputerMarkEnabled) }
    for widget in difficultyRow { setSensitive(widget, state.isDifficultyEnabled) }
    setSpinValue(sizeSpin, state.rows)
    setSpinValue(kSpin, state.k)
    setMessage(validationLabel, state.validationMessage)
    setMessage(errorLabel, state.errorMessage)
    setSensitive(letsPlayButton, state.canStart)
    if buttonLabel(of: signOutButton).replacing("_", with: "") != state.signOutTitle {
      gtk_button_set_label(cgtk_button(signOutButton), state.signOutTitle)
      cgtk_name_mnemonic_button(signOutButton, state.signOutTitle)
    }
  }

  /// Puts the keyboard focus on the Let's play! button.
  public func focus() {
    gtk_widget_grab_focus(letsPlayButton)
  }

  private func setSpinValue(_ spin: Widget, _ value: Int) {
    if Int(gtk_spin_button_get_value_as_int(cgtk_spin_button(spin))) != value {
      gtk_spin_button_set_value(cgtk_spin_button(spin), Double(value))
    }
  }
}

/// Toggle buttons of which one is chosen, like radio buttons.
final class ChoiceGroup<Value: Equatable> {
  /// The row of buttons.
  let box: Widget
  private let options: [(value: Value, button: Widget)]

  /// Creates the group from each option's value, visible label and accessible name.
  init(_ options: [(Value, String, String)], onSelect: @escaping (Value) -> Void) {
    box = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
    gtk_widget_add_css_class(box, "linked")
    var buttons: [(Value, Widget)] = []
    for (value, label, name) in options {
      let button: Widget = gtk_toggle_button_new_with_label(label)
      cgtk_set_accessible_label(button, name)
      if let first = buttons.first?.1 {
        gtk_toggle_button_set_group(cgtk_toggle_button(button), cgtk_toggle_button(first))
      }
      connect(button, "toggled") {
        if gtk_toggle_button_get_active(cgtk_toggle_button(button)) != 0 { onSelect(value) }
      }
      append(box, button)
      buttons.append((value, button))
    }
    self.options = buttons
  }

  /// Shows `value` as the chosen option.
  func select(_ value: Value) {
    for option in options where option.value == value {
      if gtk_toggle_button_get_active(cgtk_toggle_button(option.button)) == 0 {
        gtk_toggle_button_set_active(cgtk_toggle_button(option.button), 1)
      }
    }
  }
}
