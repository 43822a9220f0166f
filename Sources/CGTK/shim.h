#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checked casts: GTK's cast macros are not imported into Swift. */
static inline GtkWindow *cgtk_window(void *p) { return GTK_WINDOW(p); }
static inline GtkButton *cgtk_button(void *p) { return GTK_BUTTON(p); }
static inline GtkLabel *cgtk_label(void *p) { return GTK_LABEL(p); }
static inline GtkBox *cgtk_box(void *p) { return GTK_BOX(p); }
static inline GtkGrid *cgtk_grid(void *p) { return GTK_GRID(p); }
static inline GtkEditable *cgtk_editable(void *p) { return GTK_EDITABLE(p); }
static inline GtkEntry *cgtk_entry(void *p) { return GTK_ENTRY(p); }
static inline GtkSpinButton *cgtk_spin_button(void *p) { return GTK_SPIN_BUTTON(p); }
static inline GtkToggleButton *cgtk_toggle_button(void *p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkWidget *cgtk_widget(void *p) { return GTK_WIDGET(p); }
static inline GtkSpinner *cgtk_spinner(void *p) { return GTK_SPINNER(p); }
static inline GtkApplication *cgtk_application(void *p) { return GTK_APPLICATION(p); }
static inline GApplication *cgtk_g_application(void *p) { return G_APPLICATION(p); }
static inline GtkAspectFrame *cgtk_aspect_frame(void *p) { return GTK_ASPECT_FRAME(p); }
static inline GtkScrolledWindow *cgtk_scrolled_window(void *p) { return GTK_SCROLLED_WINDOW(p); }

/* The process's standard output, for setvbuf (a C global Swift 6 will not touch). */
static inline FILE *cgtk_stdout(void) { return stdout; }

/* A label that assistive technologies treat as a status line, so changes are announced. */
static inline GtkWidget *cgtk_status_label_new(const char *text) {
  return GTK_WIDGET(g_object_new(GTK_TYPE_LABEL, "label", text, "accessible-role",
                                 GTK_ACCESSIBLE_ROLE_STATUS, NULL));
}

/* Sets the accessible name, and keeps a copy that tests can read back (GTK 4.8 has no getter). */
static inline void cgtk_set_accessible_label(GtkWidget *widget, const char *text) {
  gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  g_object_set_data_full(G_OBJECT(widget), "cgtk-accessible-label", g_strdup(text), g_free);
}

/* Names a button with a mnemonic by its clean text: GTK 4.8 gives it the raw mnemonic
   ("_Undo") followed by its label's text. */
static inline void cgtk_name_mnemonic_button(GtkWidget *button, const char *text) {
  gtk_accessible_reset_relation(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  cgtk_set_accessible_label(button, text);
}

/* Whether a widget is a GtkButton (the type check is a macro). */
static inline gboolean cgtk_is_button(GtkWidget *widget) { return GTK_IS_BUTTON(widget); }

/* The icon a GtkImage shows by name, or the text of a GtkLabel; NULL for other widgets. */
static inline const char *cgtk_image_icon_name(GtkWidget *widget) {
  if (!GTK_IS_IMAGE(widget)) return NULL;
  const char *name = gtk_image_get_icon_name(GTK_IMAGE(widget));
  if (name) return name;
  GIcon *icon = gtk_image_get_gicon(GTK_IMAGE(widget));
  if (icon && G_IS_THEMED_ICON(icon)) {
    const char *const *names = g_themed_icon_get_names(G_THEMED_ICON(icon));
    if (names && names[0]) return names[0];
  }
  return NULL;
}
static inline const char *cgtk_label_text(GtkWidget *widget) {
  return GTK_IS_LABEL(widget) ? gtk_label_get_text(GTK_LABEL(widget)) : NULL;
}

/* Whether a widget is a GtkListBox, or a GtkScrolledWindow (the type checks are macros). */
static inline gboolean cgtk_is_list_box(GtkWidget *widget) { return GTK_IS_LIST_BOX(widget); }
static inline gboolean cgtk_is_scrolled_window(GtkWidget *widget) {
  return GTK_IS_SCROLLED_WINDOW(widget);
}

/* The accessible name last set with cgtk_set_accessible_label, or NULL. */
static inline const char *cgtk_accessible_label(GtkWidget *widget) {
  return (const char *)g_object_get_data(G_OBJECT(widget), "cgtk-accessible-label");
}

/* Sets the accessible description, and keeps a copy that tests can read back. */
static inline void cgtk_set_accessible_description(GtkWidget *widget, const char *text) {
  gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                 text, -1);
  g_object_set_data_full(G_OBJECT(widget), "cgtk-accessible-description", g_strdup(text), g_free);
}

/* The accessible description last set with cgtk_set_accessible_description, or NULL. */
static inline const char *cgtk_accessible_description(GtkWidget *widget) {
  return (const char *)g_object_get_data(G_OBJECT(widget), "cgtk-accessible-description");
}

/* Marks a widget disabled for assistive technologies while it stays focusable. */
static inline void cgtk_set_accessible_disabled(GtkWidget *widget, gboolean disabled) {
  gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_DISABLED, disabled,
                              -1);
  g_object_set_data(G_OBJECT(widget), "cgtk-accessible-disabled", GINT_TO_POINTER(disabled));
}

/* Whether cgtk_set_accessible_disabled last marked the widget disabled. */
static inline gboolean cgtk_accessible_disabled(GtkWidget *widget) {
  return GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "cgtk-accessible-disabled"));
}

/* Emits "clicked" as a click would, for tests. */
static inline void cgtk_button_click(GtkWidget *button) {
  g_signal_emit_by_name(button, "clicked");
}

#endif
