/* qm-connection-banner.c: the "not connected to the team server" banner
 * (qm-connection-banner.h). libadwaita 1.2 has no AdwBanner: a revealer
 * over a tinted box, as the plan view's catalog banner.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-connection-banner.h"
#include "qm-gtk.h"
#include "qm-store-recovery.h"

/* How often the banner looks at the store: a look costs no round trip,
 * only the pending copies' folder is read. */
#define TICK_SECONDS 2

struct _QmConnectionBanner
{
  GtkWidget     parent_instance;

  GtkRevealer  *revealer;
  GtkLabel     *label;
  GtkSpinner   *spinner;
  GtkButton    *retry_button;

  QmStore      *store;       /* a reference, or NULL */
  guint         tick_id;
  gint64        last_retry;  /* monotonic µs */
  char         *last_error;  /* why the last retry failed, or NULL */
  GCancellable *trying;      /* the try under way, or NULL */
  gboolean      trying_asked;
  /* The app's first connect (qm_connection_banner_set_opening()). */
  gboolean      opening;
  char         *opening_failed;  /* why it could not, or NULL */
};

G_DEFINE_FINAL_TYPE (QmConnectionBanner, qm_connection_banner, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_REPORT,
  SIGNAL_RECOVERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A file is always there; only a server can go away. */
static gboolean
on_server (QmConnectionBanner *self)
{
  return self->store != NULL && qm_store_db (self->store) == NULL;
}

static guint
n_pending (QmConnectionBanner *self)
{
  g_autoptr(GPtrArray) paths = qm_store_recovery_pending (self->store);

  return paths->len;
}

void
qm_connection_banner_update (QmConnectionBanner *self)
{
  gboolean connected;
  guint pending;

  g_return_if_fail (QM_IS_CONNECTION_BANNER (self));

  /* The window is on this computer's file while the app connects. */
  if (self->opening || self->opening_failed != NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->retry_button), !self->opening);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), self->opening);
      gtk_spinner_set_spinning (self->spinner, self->opening);
      if (self->opening)
        gtk_label_set_label (self->label, _("Connecting to the team server…"));
      else
        {
          /* Translators: %s is why, in words ending with the server's
           * own in parentheses; the sentence after it says what happens. */
          g_autofree char *text = g_strdup_printf (_("The team database could not be opened: %s. "
                                                     "The plans on this computer are open instead; "
                                                     "what you save now is kept here."),
                                                   self->opening_failed);

          gtk_label_set_label (self->label, text);
        }
      gtk_revealer_set_reveal_child (self->revealer, TRUE);
      return;
    }
  if (!on_server (self))
    {
      gtk_revealer_set_reveal_child (self->revealer, FALSE);
      return;
    }
  /* A try under way: the window goes on, and the banner says so. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->retry_button), self->trying == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), self->trying != NULL);
  gtk_spinner_set_spinning (self->spinner, self->trying != NULL);
  connected = qm_store_is_connected (self->store);
  pending = n_pending (self);
  if (self->trying != NULL && !connected)
    gtk_label_set_label (self->label, _("Connecting to the team server…"));
  else if (!connected)
    gtk_label_set_label (self->label,
                         _("Not connected to the team server. Changes are kept on this computer."));
  else
    {
      /* Connected, and copies from before still wait (a refused one, or
       * from an earlier session): say how many. */
      g_autofree char *text = g_strdup_printf (ngettext ("%u plan kept on this computer is not saved on the team server yet.",
                                                         "%u plans kept on this computer are not saved on the team server yet.",
                                                         pending),
                                               pending);
      gtk_label_set_label (self->label, text);
    }
  gtk_revealer_set_reveal_child (self->revealer, !connected || pending > 0);
}

gboolean
qm_connection_banner_is_shown (QmConnectionBanner *self)
{
  g_return_val_if_fail (QM_IS_CONNECTION_BANNER (self), FALSE);

  return gtk_revealer_get_reveal_child (self->revealer);
}

/* A copy still waiting is news when the user asked (Retry), not on
 * every automatic try. */
static void
report_results (QmConnectionBanner *self,
                GPtrArray          *results,
                gboolean            asked)
{
  guint saved = 0;

  for (guint i = 0; i < results->len; i++)
    {
      QmRecoveryResult *r = g_ptr_array_index (results, i);

      if (r->outcome != QM_RECOVERY_PENDING)
        saved++;
      if (asked || r->outcome != QM_RECOVERY_PENDING)
        g_signal_emit (self, signals[SIGNAL_REPORT], 0, r->message);
    }
  if (saved > 0)
    g_signal_emit (self, signals[SIGNAL_RECOVERED], 0, saved);
}

/* What a try ends with, however it was made: the results reported, the
 * failure kept for the tooltip, the banner brought up to date. TRUE when
 * connected. */
static gboolean
end_retry (QmConnectionBanner *self,
           GPtrArray          *results,
           const GError       *error,
           gboolean            asked)
{
  if (results != NULL)
    report_results (self, results, asked);
  g_clear_pointer (&self->last_error, g_free);
  if (error != NULL)
    {
      /* The URI holds '&': text, not markup. */
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      self->last_error = g_strdup (error->message);
      gtk_widget_set_tooltip_markup (GTK_WIDGET (self->label), escaped);
    }
  else
    gtk_widget_set_tooltip_markup (GTK_WIDGET (self->label), NULL);
  qm_connection_banner_update (self);
  return qm_store_is_connected (self->store);
}

static gboolean
retry (QmConnectionBanner *self,
       gboolean            asked)
{
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  if (!on_server (self))
    return TRUE;
  /* One try at a time: this one answers now, so the one under way goes. */
  if (self->trying != NULL)
    {
      g_cancellable_cancel (self->trying);
      g_clear_object (&self->trying);
    }
  self->last_retry = g_get_monotonic_time ();
  /* Bounded by QM_STORE_RECONNECT_TIMEOUT_MS: the caller waits at most
   * that long. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->retry_button), FALSE);
  if (qm_store_reconnect (self->store, &error))
    results = qm_store_recovery_flush (self->store, &error);
  return end_retry (self, results, error, asked);
}

static void
retry_ready (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  QmConnectionBanner *self;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  gboolean asked;

  /* Cancelled by dispose (or by a synchronous retry): the banner may be
   * gone, so it is not touched. */
  if (!qm_store_reconnect_finish (result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = QM_CONNECTION_BANNER (user_data);
  g_clear_object (&self->trying);
  asked = self->trying_asked;
  /* Connected: the copies are saved here, on the server that is up, as
   * any save is. */
  if (error == NULL)
    results = qm_store_recovery_flush (self->store, &error);
  if (!end_retry (self, results, error, asked) && asked && self->last_error != NULL)
    g_signal_emit (self, signals[SIGNAL_REPORT], 0, self->last_error);
}

/* Starts a try in the background (none if one is under way already):
 * the connect waits in a worker thread, so the window stays responsive
 * while the server does not answer. */
static void
retry_async (QmConnectionBanner *self,
             gboolean            asked)
{
  if (!on_server (self) || self->trying != NULL)
    return;
  self->last_retry = g_get_monotonic_time ();
  self->trying = g_cancellable_new ();
  self->trying_asked = asked;
  qm_connection_banner_update (self);
  qm_store_reconnect_async (self->store, self->trying, retry_ready, self);
}

gboolean
qm_connection_banner_retry (QmConnectionBanner *self)
{
  g_return_val_if_fail (QM_IS_CONNECTION_BANNER (self), FALSE);

  return retry (self, TRUE);
}

gboolean
qm_connection_banner_is_trying (QmConnectionBanner *self)
{
  g_return_val_if_fail (QM_IS_CONNECTION_BANNER (self), FALSE);

  return self->trying != NULL;
}

static void
retry_clicked (QmConnectionBanner *self)
{
  /* The app's first connect failed: the app tries it again, and moves
   * its windows to the server when it answers. */
  if (self->opening_failed != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "app.connect-team", NULL);
      return;
    }
  retry_async (self, TRUE);
}

void
qm_connection_banner_set_opening (QmConnectionBanner *self,
                                  gboolean            connecting,
                                  const char         *why)
{
  g_return_if_fail (QM_IS_CONNECTION_BANNER (self));

  self->opening = connecting;
  g_clear_pointer (&self->opening_failed, g_free);
  if (!connecting && why != NULL)
    {
      /* The error's message is a sentence; the banner's ends with its own full stop. */
      self->opening_failed = g_strdup (why);
      g_strchomp (self->opening_failed);
      if (g_str_has_suffix (self->opening_failed, "."))
        self->opening_failed[strlen (self->opening_failed) - 1] = '\0';
    }
  qm_connection_banner_update (self);
}

/* While disconnected, try again now and then; once connected, save what
 * waits at once. */
static gboolean
tick (gpointer data)
{
  QmConnectionBanner *self = data;
  gint64 due = self->last_retry + QM_CONNECTION_BANNER_RETRY_SECONDS * G_USEC_PER_SEC;

  if (self->trying != NULL)
    return G_SOURCE_CONTINUE;
  if (!qm_store_is_connected (self->store))
    {
      if (g_get_monotonic_time () >= due)
        retry_async (self, FALSE);
      else
        qm_connection_banner_update (self);
    }
  else if (n_pending (self) > 0 && g_get_monotonic_time () >= due)
    retry_async (self, FALSE);
  else
    qm_connection_banner_update (self);
  return G_SOURCE_CONTINUE;
}

static void
qm_connection_banner_dispose (GObject *object)
{
  QmConnectionBanner *self = QM_CONNECTION_BANNER (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  /* The try may end after the banner is gone: retry_ready() sees this. */
  g_cancellable_cancel (self->trying);
  g_clear_object (&self->trying);
  g_clear_pointer (&self->last_error, g_free);
  g_clear_pointer (&self->opening_failed, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_CONNECTION_BANNER);
  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_connection_banner_parent_class)->dispose (object);
}

static void
qm_connection_banner_class_init (QmConnectionBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_connection_banner_dispose;

  signals[SIGNAL_REPORT] = g_signal_new ("report", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_RECOVERED] = g_signal_new ("recovered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  qm_gtk_class_set_template (widget_class, "qm-connection-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, QmConnectionBanner, revealer);
  gtk_widget_class_bind_template_child (widget_class, QmConnectionBanner, label);
  gtk_widget_class_bind_template_child (widget_class, QmConnectionBanner, spinner);
  gtk_widget_class_bind_template_child (widget_class, QmConnectionBanner, retry_button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "connectionbanner");
}

static void
qm_connection_banner_init (QmConnectionBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->retry_button, "clicked", G_CALLBACK (retry_clicked), self);
  /* Retry is read without its underscore (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

GtkWidget *
qm_connection_banner_new (QmStore *store)
{
  QmConnectionBanner *self = g_object_new (QM_TYPE_CONNECTION_BANNER, NULL);

  self->store = store ? qm_store_ref (store) : NULL;
  if (on_server (self))
    {
      self->tick_id = g_timeout_add_seconds (TICK_SECONDS, tick, self);
      qm_connection_banner_update (self);
    }
  return GTK_WIDGET (self);
}
