/* qm-advisor-panel.c: the plan view's Advisor section (issue #12).
 *
 * The advice is qm_advise() on the editor's plan, shown as it comes: the
 * core already keeps only feasible changes and ranks them by the goal.
 * The rows say each change's effect twice, in numbers ("110 days →
 * 86.0 days") and in words with an arrow ("↓ 22% less"), so the direction
 * never rests on colour alone.
 *
 * qm_advise() takes well under a millisecond for the examples (about 1 ms
 * for 405B on 16k GPUs, tests/bench-advisor.c); building rows costs more.
 * So an edit never waits: the advice is computed after the frame that
 * shows the edit, once for a burst of keystrokes, and rows that come back
 * with new figures are updated in place. A suggestion's details are built
 * when it is first expanded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-advisor-panel.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-plan-store.h"
#include "qm-plan.h"
#include "qm-store-roles.h"

/* A figure whose change rounds below this is not mentioned (the core's
 * own threshold for "better somewhere"). */
#define MIN_CHANGE 0.005

struct _QmAdvisorPanel
{
  GtkWidget        parent_instance;

  QmPlanEditor    *editor;
  gulong           changed_handler;
  QmStore         *store;
  QmAdvisorGoal    goal;

  /* The advice on screen and the plan and goal it was computed for, so
   * that an unchanged plan (a refused edit, a property notify) costs
   * nothing. */
  QmAdvisorResult *result;
  QmPlan          *computed_plan;
  QmAdvisorGoal    computed_goal;
  gboolean         computed_fits;
  gboolean         computed;

  /* An edit waits for the frame that shows it, then for an idle. */
  GdkFrameClock   *frame_clock;
  gulong           after_paint_handler;
  guint            idle_source;
  gint64           scheduled_at;
  gint64           last_duration;

  /* Rows and Try It buttons by id, the ids the user expanded, and what
   * the lists show (ids in order) to update rows in place. */
  GHashTable      *rows;
  GHashTable      *buttons;
  GHashTable      *expanded;
  GPtrArray       *shown_ids;
  char            *shown_key;
  char            *guidance_key;

  /* Template children. */
  GtkBox          *box;
  GtkBox          *goal_box;
  GtkToggleButton *time_button;
  GtkToggleButton *cost_button;
  GtkToggleButton *energy_button;
  GtkToggleButton *gpus_button;
  GtkListBox      *suggestions_list;
  AdwPreferencesGroup *guidance_group;
  GtkListBox      *guidance_list;
};

enum {
  PROP_0,
  PROP_EDITOR,
  PROP_GOAL,
  N_PROPS
};

enum {
  PLAN_SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QmAdvisorPanel, qm_advisor_panel, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Effects in words                                                    */

typedef enum
{
  FIGURE_TIME,
  FIGURE_GPUS,
  FIGURE_COST,
  FIGURE_ENERGY,
  FIGURE_UPFRONT,
  N_FIGURES
} Figure;

static const char *figure_names[N_FIGURES] = {
  "effect-time", "effect-gpus", "effect-cost", "effect-energy", "effect-upfront",
};

static char *
percent (double change)
{
  /* Never "0%" for a change the row mentions. */
  return g_strdup_printf ("%.0f%%", MAX (1.0, round (fabs (change) * 100.0)));
}

/* "22% less time": the change of one figure as a phrase for the row's
 * subtitle. Each phrase is whole for translators. */
static char *
effect_phrase (Figure figure,
               double change)
{
  g_autofree char *p = percent (change);
  gboolean less = change < 0;

  switch (figure)
    {
    case FIGURE_TIME:
      return g_strdup_printf (less ? _("%s less time") : _("%s more time"), p);
    case FIGURE_GPUS:
      return g_strdup_printf (less ? _("%s fewer GPUs") : _("%s more GPUs"), p);
    case FIGURE_COST:
      return g_strdup_printf (less ? _("%s lower cost") : _("%s higher cost"), p);
    case FIGURE_ENERGY:
      return g_strdup_printf (less ? _("%s less energy") : _("%s more energy"), p);
    case FIGURE_UPFRONT:
    default:
      return g_strdup_printf (less ? _("%s less upfront") : _("%s more upfront"), p);
    }
}

/* "22% less" / "5% fewer": the change beside a figure's row. */
static char *
change_words (Figure figure,
              double change)
{
  g_autofree char *p = percent (change);

  if (figure == FIGURE_GPUS)
    return g_strdup_printf (change < 0 ? _("%s fewer") : _("%s more"), p);
  return g_strdup_printf (change < 0 ? C_("less of a figure", "%s less") : C_("more of a figure", "%s more"), p);
}

static const char *
figure_title (Figure   figure,
              gboolean training)
{
  switch (figure)
    {
    case FIGURE_TIME: return _("Time to Train");
    case FIGURE_GPUS: return _("GPUs");
    case FIGURE_COST: return training ? _("Cost of the Run") : _("Cost per Month");
    case FIGURE_ENERGY: return _("Energy");
    case FIGURE_UPFRONT:
    default: return _("Hardware Upfront");
    }
}

static char *
format_figure (Figure        figure,
               double        value,
               const QmPlan *plan)
{
  char buf[QM_FORMAT_BUF];

  switch (figure)
    {
    case FIGURE_TIME:
      return g_strdup (qm_format_days (buf, sizeof buf, value));
    case FIGURE_GPUS:
      return g_strdup (qm_format_number (buf, sizeof buf, value, 0));
    case FIGURE_ENERGY:
      return g_strdup (qm_format_energy (buf, sizeof buf, value));
    case FIGURE_COST:
    case FIGURE_UPFRONT:
    default:
      return g_strdup (qm_format_money (buf, sizeof buf, value, plan->pricing.currency));
    }
}

/* g_strlcpy that never cuts a UTF-8 character in half. */
static void
copy_utf8 (char       *dest,
           gsize       size,
           const char *src)
{
  const char *end = src + strlen (src);

  if ((gsize) (end - src) >= size)
    end = g_utf8_find_prev_char (src, src + size);
  memcpy (dest, src, end - src);
  dest[end - src] = '\0';
}

static const QmAdvice *
find_advice (const QmAdvisorResult *r,
             const char            *id)
{
  for (guint i = 0; i < r->n; i++)
    if (g_strcmp0 (r->items[i].id, id) == 0)
      return &r->items[i];
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkWidget *
text_row (const char *name,
          const char *title,
          const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  gtk_widget_set_name (row, name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  return row;
}

/* "Time to Train: 110 days → 86.0 days", then "↓ 22% less". */
static GtkWidget *
figure_row (Figure        figure,
            double        before,
            double        after,
            double        change,
            const QmPlan *plan,
            gboolean      training)
{
  g_autofree char *from = format_figure (figure, before, plan);
  g_autofree char *to = format_figure (figure, after, plan);
  /* TRANSLATORS: a figure before and after a change, "110 days → 86.0 days" */
  g_autofree char *values = g_strdup_printf (_("%s → %s"), from, to);
  g_autofree char *words = change_words (figure, change);
  g_autofree char *a11y = NULL;
  GtkWidget *row = text_row (figure_names[figure], figure_title (figure, training), values);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  /* An arrow, not the theme's chevrons: those read as the expander's. */
  GtkWidget *arrow = gtk_label_new (change < 0 ? "↓" : "↑");
  GtkWidget *label = gtk_label_new (words);

  /* Less of anything the advisor measures is better; the colour only
   * repeats what the arrow and the words say. */
  gtk_widget_add_css_class (box, change < 0 ? "success" : "warning");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_name (arrow, "arrow");
  gtk_widget_set_name (label, "change");
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), arrow);
  gtk_box_append (GTK_BOX (box), label);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), box);

  a11y = g_strdup_printf ("%s: %s, %s", figure_title (figure, training), values, words);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  return row;
}

typedef struct
{
  Figure   figure;
  double   before, after, change;
  gboolean shown;
} FigureChange;

static guint
figure_changes (const QmAdvisorResult *r,
                const QmAdvice        *a,
                FigureChange           out[N_FIGURES])
{
  const FigureChange all[N_FIGURES] = {
    { FIGURE_TIME, r->days, a->days, a->d_days, r->days > 0 },
    { FIGURE_GPUS, r->gpus, a->gpus, a->d_gpus, TRUE },
    { FIGURE_COST, r->cost, a->cost, a->d_cost, TRUE },
    { FIGURE_ENERGY, r->energy_mwh, a->energy_mwh, a->d_energy, TRUE },
    { FIGURE_UPFRONT, r->upfront, a->upfront, a->d_upfront, r->upfront > 0 },
  };
  guint n = 0;

  for (guint i = 0; i < N_FIGURES; i++)
    if (all[i].shown && fabs (all[i].change) >= MIN_CHANGE)
      out[n++] = all[i];
  return n;
}

/* The rows inside a suggestion: built when it is first expanded, so that
 * an edit rebuilds only what is on screen. */
static void
populate (QmAdvisorPanel *self,
          AdwExpanderRow *row)
{
  const QmAdvice *a = find_advice (self->result, gtk_widget_get_name (GTK_WIDGET (row)));
  GPtrArray *children = g_object_get_data (G_OBJECT (row), "qm-children");
  FigureChange changes[N_FIGURES];
  guint n;

  for (guint i = 0; i < children->len; i++)
    adw_expander_row_remove (row, g_ptr_array_index (children, i));
  g_ptr_array_set_size (children, 0);
  g_object_set_data (G_OBJECT (row), "qm-populated", GINT_TO_POINTER (TRUE));
  if (a == NULL)
    return;

  n = figure_changes (self->result, a, changes);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (children, figure_row (changes[i].figure, changes[i].before, changes[i].after,
                                           changes[i].change, self->computed_plan, self->result->days > 0));
  g_ptr_array_add (children, text_row ("tradeoff", _("Trade-off"), a->tradeoff));
  g_ptr_array_add (children, text_row ("assumption", _("Assumption and Source"), a->assumption));
  for (guint i = 0; i < children->len; i++)
    adw_expander_row_add_row (row, g_ptr_array_index (children, i));
}

static void
on_expanded_changed (AdwExpanderRow *row,
                     GParamSpec     *pspec,
                     QmAdvisorPanel *self)
{
  const char *id = gtk_widget_get_name (GTK_WIDGET (row));

  if (adw_expander_row_get_expanded (row))
    {
      g_hash_table_add (self->expanded, g_strdup (id));
      if (g_object_get_data (G_OBJECT (row), "qm-populated") == NULL)
        populate (self, row);
    }
  else
    g_hash_table_remove (self->expanded, id);
}

/* Title, effect in words and the button's name: what a collapsed row shows. */
static void
update_header (QmAdvisorPanel *self,
               AdwExpanderRow *row,
               const QmAdvice *a)
{
  GtkWidget *button = g_hash_table_lookup (self->buttons, a->id);
  g_autoptr(GString) subtitle = g_string_new (NULL);
  g_autofree char *label = NULL;
  g_autofree char *a11y = NULL;
  FigureChange changes[N_FIGURES];
  guint n = figure_changes (self->result, a, changes);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), a->title);
  if (!self->computed_fits)
    g_string_append (subtitle, _("Fits in GPU memory"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *phrase = effect_phrase (changes[i].figure, changes[i].change);

      /* TRANSLATORS: separates the effects of a suggestion: "22% less time, 22% lower cost" */
      g_string_append_printf (subtitle, "%s%s", subtitle->len ? _(", ") : "", phrase);
    }
  adw_expander_row_set_subtitle (row, subtitle->str);

  /* TRANSLATORS: the accessible name of a suggestion's button, "Try it: Train in FP8" */
  label = g_strdup_printf (_("Try it: %s"), a->title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  a11y = g_strdup_printf ("%s: %s", a->title, subtitle->str);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, a11y, -1);
}

static void on_try_clicked (GtkButton      *button,
                            QmAdvisorPanel *self);

static GtkWidget *
suggestion_row (QmAdvisorPanel *self,
                const QmAdvice *a)
{
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *button = gtk_button_new_with_label (_("Try It"));

  gtk_widget_set_name (row, a->id);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  g_object_set_data_full (G_OBJECT (row), "qm-children", g_ptr_array_new (), (GDestroyNotify) g_ptr_array_unref);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Save a copy of this plan with this change, and open it"));
  /* A team role that may not save plans, or a read-only file, cannot
   * save the copy: say why. */
  if (self->store != NULL && !(qm_store_rights (self->store) & QM_STORE_RIGHT_EDIT_PLANS))
    {
      g_autofree char *why = qm_store_rights_reason (self->store, QM_STORE_RIGHT_EDIT_PLANS);

      gtk_widget_set_sensitive (button, FALSE);
      gtk_widget_set_tooltip_text (button, why);
    }
  g_object_set_data_full (G_OBJECT (button), "qm-advice-id", g_strdup (a->id), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_try_clicked), self);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (row), button);

  g_hash_table_insert (self->rows, g_strdup (a->id), row);
  g_hash_table_insert (self->buttons, g_strdup (a->id), button);
  update_header (self, ADW_EXPANDER_ROW (row), a);

  if (g_hash_table_contains (self->expanded, a->id))
    {
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
      populate (self, ADW_EXPANDER_ROW (row));
    }
  g_signal_connect (row, "notify::expanded", G_CALLBACK (on_expanded_changed), self);
  return row;
}

static GtkWidget *
guidance_row (QmAdvisorPanel *self,
              const QmAdvice *a)
{
  /* TRANSLATORS: where a piece of guidance comes from: "Source: Lee et al. 2022 ..." */
  g_autofree char *source = g_strdup_printf (_("Source: %s"), a->assumption);
  g_autofree char *subtitle = g_strdup_printf ("%s\n%s", a->tradeoff, source);
  GtkWidget *row = text_row (a->id, a->title, subtitle);

  g_hash_table_insert (self->rows, g_strdup (a->id), row);
  return row;
}

static void
status_row (QmAdvisorPanel *self,
            const char     *title,
            const char     *subtitle)
{
  gtk_list_box_append (self->suggestions_list, text_row ("status", title, subtitle));
}

/* "precision-fp8\nzero-2\n...": what the list shows, in order. */
static char *
shown_key (const QmAdvice *items,
           guint           n,
           gboolean        plan_ok)
{
  GString *key = g_string_new (plan_ok ? "ok" : "errors");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (key, "\n%s", items[i].id);
  return g_string_free (key, FALSE);
}

/* While typing a number the same changes come back with new figures:
 * update the rows in place. A different list is built anew. */
static void
update_rows (QmAdvisorPanel *self,
             gboolean        plan_ok)
{
  const QmAdvisorResult *r = self->result;
  g_autofree char *key = shown_key (r->items, plan_ok ? r->n : 0, plan_ok);
  g_autofree char *guidance_key = shown_key (r->guidance, plan_ok ? r->n_guidance : 0, plan_ok);

  if (g_strcmp0 (key, self->shown_key) == 0)
    {
      for (guint i = 0; i < r->n; i++)
        {
          AdwExpanderRow *row = g_hash_table_lookup (self->rows, r->items[i].id);

          update_header (self, row, &r->items[i]);
          if (g_object_get_data (G_OBJECT (row), "qm-populated") != NULL)
            populate (self, row);
        }
    }
  else
    {
      for (guint i = 0; self->shown_ids != NULL && i < self->shown_ids->len; i++)
        {
          g_hash_table_remove (self->rows, g_ptr_array_index (self->shown_ids, i));
          g_hash_table_remove (self->buttons, g_ptr_array_index (self->shown_ids, i));
        }
      g_clear_pointer (&self->shown_ids, g_ptr_array_unref);
      self->shown_ids = g_ptr_array_new_with_free_func (g_free);
      clear_list (self->suggestions_list);

      if (!plan_ok)
        status_row (self, _("Nothing to Suggest Yet"),
                    _("The advisor needs a plan the core can estimate: correct the inputs marked in the side panel."));
      else if (r->n == 0)
        status_row (self, _("Nothing to improve…"),
                    _("No change the core can quantify makes this plan faster, cheaper, greener or smaller while keeping it feasible."));
      for (guint i = 0; plan_ok && i < r->n; i++)
        {
          gtk_list_box_append (self->suggestions_list, suggestion_row (self, &r->items[i]));
          g_ptr_array_add (self->shown_ids, g_strdup (r->items[i].id));
        }
      g_free (self->shown_key);
      self->shown_key = g_steal_pointer (&key);
    }

  /* Guidance depends on the kind of plan only: rebuilt when that changes. */
  if (g_strcmp0 (guidance_key, self->guidance_key) != 0)
    {
      for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->guidance_list)); c;
           c = gtk_widget_get_next_sibling (c))
        g_hash_table_remove (self->rows, gtk_widget_get_name (c));
      clear_list (self->guidance_list);
      for (guint i = 0; plan_ok && i < r->n_guidance; i++)
        gtk_list_box_append (self->guidance_list, guidance_row (self, &r->guidance[i]));
      gtk_widget_set_visible (GTK_WIDGET (self->guidance_group), plan_ok && r->n_guidance > 0);
      g_free (self->guidance_key);
      self->guidance_key = g_steal_pointer (&guidance_key);
    }
}

/* ------------------------------------------------------------------ */
/* Computing                                                           */

static void
cancel (QmAdvisorPanel *self)
{
  g_clear_handle_id (&self->idle_source, g_source_remove);
  if (self->frame_clock != NULL)
    g_clear_signal_handler (&self->after_paint_handler, self->frame_clock);
  g_clear_object (&self->frame_clock);
}

static void
compute (QmAdvisorPanel *self)
{
  const QmPlan *plan;
  const QmEstimate *e;
  gboolean plan_ok;
  gint64 t0 = g_get_monotonic_time ();

  cancel (self);
  if (self->editor == NULL)
    return;

  plan = qm_plan_editor_get_plan (self->editor);
  e = qm_plan_editor_get_estimate (self->editor);
  if (self->computed && self->computed_goal == self->goal &&
      qm_plan_equal (self->computed_plan, plan))
    return;

  plan_ok = e->valid && e->n_errors == 0;
  if (plan_ok)
    qm_advise (plan, self->goal, self->result);
  else
    memset (self->result, 0, sizeof *self->result);
  *self->computed_plan = *plan;
  self->computed_goal = self->goal;
  self->computed_fits = e->fits;
  self->computed = TRUE;
  update_rows (self, plan_ok);

  self->last_duration = g_get_monotonic_time () - t0;
  g_debug ("advisor: %u suggestions from %u estimates, %.2f ms with the rows, %.2f ms after the edit",
           self->result->n, self->result->evaluated, self->last_duration / 1000.0,
           (t0 - self->scheduled_at) / 1000.0);
}

static gboolean
compute_idle (gpointer user_data)
{
  QmAdvisorPanel *self = user_data;

  self->idle_source = 0;
  compute (self);
  return G_SOURCE_REMOVE;
}

static void
add_idle (QmAdvisorPanel *self,
          int             priority)
{
  if (self->idle_source != 0)
    return;
  self->idle_source = g_idle_add_full (priority, compute_idle, self, NULL);
  g_source_set_name_by_id (self->idle_source, "[quartermaster] advisor");
}

/* The edit's own frame has been painted: the advice comes next, still
 * after any keystrokes already queued (events outrank idles). */
static void
on_after_paint (GdkFrameClock  *clock,
                QmAdvisorPanel *self)
{
  g_clear_signal_handler (&self->after_paint_handler, self->frame_clock);
  g_clear_object (&self->frame_clock);
  add_idle (self, G_PRIORITY_HIGH_IDLE + 30);
}

/* A burst of edits costs one computation: nothing more is scheduled while
 * one waits. */
static void
schedule (QmAdvisorPanel *self)
{
  GdkFrameClock *clock;

  if (self->idle_source != 0 || self->frame_clock != NULL)
    return;
  self->scheduled_at = g_get_monotonic_time ();
  clock = gtk_widget_get_mapped (GTK_WIDGET (self)) ? gtk_widget_get_frame_clock (GTK_WIDGET (self)) : NULL;
  if (clock == NULL)
    {
      add_idle (self, G_PRIORITY_DEFAULT_IDLE);
      return;
    }
  self->frame_clock = g_object_ref (clock);
  self->after_paint_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), self);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
}

static void
on_editor_changed (QmPlanEditor   *editor,
                   QmAdvisorPanel *self)
{
  schedule (self);
}

/* ------------------------------------------------------------------ */
/* Try It                                                              */

static void
toast (QmAdvisorPanel *self,
       const char     *text)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  AdwToast *t;

  if (overlay == NULL)
    {
      g_message ("%s", text);
      return;
    }
  t = adw_toast_new (text);
  adw_toast_set_timeout (t, 5);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), t);
}

static void
on_try_clicked (GtkButton      *button,
                QmAdvisorPanel *self)
{
  g_autofree char *id = g_strdup (g_object_get_data (G_OBJECT (button), "qm-advice-id"));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gint64 saved;

  /* The button may go away with its row below: hold the panel. */
  g_object_ref (self);
  saved = qm_advisor_panel_try (self, id, &error);
  if (saved == 0)
    toast (self, error->message);
  else
    {
      QmSavedPlan *sp = qm_plan_store_load (self->store, saved, NULL);

      text = g_strdup_printf (_("Saved “%s” as a new plan"), sp != NULL ? sp->name : "");
      g_clear_pointer (&sp, qm_saved_plan_free);
      toast (self, text);
      g_signal_emit (self, signals[PLAN_SAVED], 0, saved);
    }
  g_object_unref (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
on_goal_toggled (GtkToggleButton *button,
                 QmAdvisorPanel  *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  if (button == self->time_button)
    qm_advisor_panel_set_goal (self, QM_ADVISOR_GOAL_TIME);
  else if (button == self->cost_button)
    qm_advisor_panel_set_goal (self, QM_ADVISOR_GOAL_COST);
  else if (button == self->energy_button)
    qm_advisor_panel_set_goal (self, QM_ADVISOR_GOAL_ENERGY);
  else if (button == self->gpus_button)
    qm_advisor_panel_set_goal (self, QM_ADVISOR_GOAL_GPUS);
}

/* Hidden before the edit's frame came: compute in a plain idle instead. */
static void
qm_advisor_panel_unmap (GtkWidget *widget)
{
  QmAdvisorPanel *self = QM_ADVISOR_PANEL (widget);

  if (self->frame_clock != NULL)
    {
      cancel (self);
      add_idle (self, G_PRIORITY_DEFAULT_IDLE);
    }
  GTK_WIDGET_CLASS (qm_advisor_panel_parent_class)->unmap (widget);
}

static void
qm_advisor_panel_dispose (GObject *object)
{
  QmAdvisorPanel *self = QM_ADVISOR_PANEL (object);

  cancel (self);
  if (self->editor != NULL)
    g_clear_signal_handler (&self->changed_handler, self->editor);
  g_clear_object (&self->editor);
  if (self->rows != NULL)
    g_hash_table_remove_all (self->rows);
  if (self->buttons != NULL)
    g_hash_table_remove_all (self->buttons);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_ADVISOR_PANEL);

  G_OBJECT_CLASS (qm_advisor_panel_parent_class)->dispose (object);
}

static void
qm_advisor_panel_finalize (GObject *object)
{
  QmAdvisorPanel *self = QM_ADVISOR_PANEL (object);

  g_free (self->result);
  g_free (self->computed_plan);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  g_clear_pointer (&self->buttons, g_hash_table_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->shown_ids, g_ptr_array_unref);
  g_free (self->shown_key);
  g_free (self->guidance_key);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_advisor_panel_parent_class)->finalize (object);
}

static void
qm_advisor_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  QmAdvisorPanel *self = QM_ADVISOR_PANEL (object);

  switch (prop_id)
    {
    case PROP_EDITOR:
      g_value_set_object (value, self->editor);
      break;
    case PROP_GOAL:
      g_value_set_uint (value, self->goal);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_advisor_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  QmAdvisorPanel *self = QM_ADVISOR_PANEL (object);

  switch (prop_id)
    {
    case PROP_EDITOR:
      qm_advisor_panel_set_editor (self, g_value_get_object (value));
      break;
    case PROP_GOAL:
      qm_advisor_panel_set_goal (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_advisor_panel_class_init (QmAdvisorPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_advisor_panel_dispose;
  object_class->finalize = qm_advisor_panel_finalize;
  object_class->get_property = qm_advisor_panel_get_property;
  object_class->set_property = qm_advisor_panel_set_property;
  widget_class->unmap = qm_advisor_panel_unmap;

  properties[PROP_EDITOR] =
    g_param_spec_object ("editor", NULL, NULL, QM_TYPE_PLAN_EDITOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A QmAdvisorGoal (the core has no GType for it). */
  properties[PROP_GOAL] =
    g_param_spec_uint ("goal", NULL, NULL, QM_ADVISOR_GOAL_TIME, QM_ADVISOR_GOAL_GPUS, QM_ADVISOR_GOAL_COST,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[PLAN_SAVED] = g_signal_new ("plan-saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  qm_gtk_class_set_template (widget_class, "qm-advisor-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, box);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, goal_box);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, time_button);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, cost_button);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, energy_button);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, gpus_button);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, suggestions_list);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, guidance_group);
  gtk_widget_class_bind_template_child (widget_class, QmAdvisorPanel, guidance_list);
  gtk_widget_class_bind_template_callback (widget_class, on_goal_toggled);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "advisorpanel");
}

static void
qm_advisor_panel_init (QmAdvisorPanel *self)
{
  self->goal = QM_ADVISOR_GOAL_COST;
  self->result = g_new0 (QmAdvisorResult, 1);
  self->computed_plan = g_new0 (QmPlan, 1);
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->buttons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self->guidance_group), FALSE);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
qm_advisor_panel_new (void)
{
  return g_object_new (QM_TYPE_ADVISOR_PANEL, NULL);
}

QmPlanEditor *
qm_advisor_panel_get_editor (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), NULL);
  return self->editor;
}

void
qm_advisor_panel_set_editor (QmAdvisorPanel *self,
                             QmPlanEditor   *editor)
{
  g_return_if_fail (QM_IS_ADVISOR_PANEL (self));
  g_return_if_fail (editor == NULL || QM_IS_PLAN_EDITOR (editor));

  if (self->editor == editor)
    return;
  if (self->editor != NULL)
    g_clear_signal_handler (&self->changed_handler, self->editor);
  g_set_object (&self->editor, editor);
  if (editor != NULL)
    self->changed_handler = g_signal_connect (editor, "changed", G_CALLBACK (on_editor_changed), self);
  self->computed = FALSE;
  schedule (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITOR]);
}

QmStore *
qm_advisor_panel_get_store (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), NULL);
  return self->store;
}

void
qm_advisor_panel_set_store (QmAdvisorPanel *self,
                            QmStore        *store)
{
  g_return_if_fail (QM_IS_ADVISOR_PANEL (self));
  if (store != NULL)
    qm_store_ref (store);
  g_clear_pointer (&self->store, qm_store_unref);
  self->store = store;
}

QmAdvisorGoal
qm_advisor_panel_get_goal (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), QM_ADVISOR_GOAL_COST);
  return self->goal;
}

void
qm_advisor_panel_set_goal (QmAdvisorPanel *self,
                           QmAdvisorGoal   goal)
{
  GtkToggleButton *buttons[] = { self->time_button, self->cost_button, self->energy_button, self->gpus_button };

  g_return_if_fail (QM_IS_ADVISOR_PANEL (self));
  g_return_if_fail (goal <= QM_ADVISOR_GOAL_GPUS);

  if (self->goal == goal)
    return;
  self->goal = goal;
  gtk_toggle_button_set_active (buttons[goal], TRUE);
  /* A click, not typing: re-rank at once. */
  if (self->editor != NULL)
    compute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GOAL]);
}

void
qm_advisor_panel_flush (QmAdvisorPanel *self)
{
  g_return_if_fail (QM_IS_ADVISOR_PANEL (self));
  if (qm_advisor_panel_get_pending (self))
    {
      cancel (self);
      compute (self);
    }
}

gboolean
qm_advisor_panel_get_pending (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), FALSE);
  return self->idle_source != 0 || self->frame_clock != NULL;
}

const QmAdvisorResult *
qm_advisor_panel_get_result (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), NULL);
  return self->computed ? self->result : NULL;
}

gint64
qm_advisor_panel_get_last_duration (QmAdvisorPanel *self)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), 0);
  return self->last_duration;
}

gint64
qm_advisor_panel_try (QmAdvisorPanel  *self,
                      const char      *id,
                      GError         **error)
{
  const QmPlan *original;
  const QmAdvice *a;
  g_autofree QmPlan *copy = NULL;
  g_autofree QmEstimate *e = NULL;
  g_autoptr(QmSavedPlan) sp = NULL;
  g_autoptr(QmSavedPlan) from = NULL;
  g_autofree char *name = NULL;
  gint64 saved_id;

  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), 0);
  g_return_val_if_fail (id != NULL, 0);

  if (self->store == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("There is no plan library to save a copy in, so nothing was opened"));
      return 0;
    }
  if (self->editor == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no plan to change"));
      return 0;
    }
  /* Never apply advice computed for an older version of the plan. */
  qm_advisor_panel_flush (self);
  a = find_advice (self->result, id);
  if (a == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This suggestion no longer applies to the plan as it is now"));
      return 0;
    }

  original = qm_plan_editor_get_plan (self->editor);
  copy = g_memdup2 (&a->plan, sizeof a->plan);
  /* TRANSLATORS: the name of a plan saved by Try It: "<plan name> — <suggestion>" */
  name = g_strdup_printf (_("%s — %s"), original->name, a->title);
  copy_utf8 (copy->name, sizeof copy->name, name);
  e = g_new0 (QmEstimate, 1);
  qm_estimate (copy, e);

  /* Keep the original's customer and tags, as Save a Copy does. */
  if (qm_plan_editor_get_saved_id (self->editor) > 0)
    from = qm_plan_store_load (self->store, qm_plan_editor_get_saved_id (self->editor), NULL);
  sp = from != NULL ? qm_saved_plan_copy (from) : qm_saved_plan_new ();
  sp->id = 0;
  g_free (sp->name);
  sp->name = g_strdup (copy->name);
  g_clear_pointer (&sp->notes, g_free);
  g_free (sp->inputs);
  sp->inputs = qm_plan_to_data (copy, NULL);
  g_free (sp->snapshot);
  sp->snapshot = qm_estimate_to_json (copy, e, NULL);
  g_free (sp->model);
  sp->model = g_strdup (copy->workload.preset[0] ? copy->workload.preset : "custom");
  sp->gpus = e->gpus;
  sp->days = e->train_days > 0 ? e->train_days : e->ideal_days;
  sp->total_cost = e->has_cost ? e->cost.total : 0;
  g_clear_pointer (&sp->catalog_version, g_free);
  g_clear_pointer (&sp->prices, g_free);

  if (!qm_plan_store_save (self->store, sp, error))
    return 0;
  saved_id = sp->id;
  return saved_id;
}

GtkWidget *
qm_advisor_panel_get_row (QmAdvisorPanel *self,
                          const char     *id)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), NULL);
  return g_hash_table_lookup (self->rows, id);
}

GtkWidget *
qm_advisor_panel_get_try_button (QmAdvisorPanel *self,
                                 const char     *id)
{
  g_return_val_if_fail (QM_IS_ADVISOR_PANEL (self), NULL);
  return g_hash_table_lookup (self->buttons, id);
}
