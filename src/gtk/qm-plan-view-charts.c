/* qm-plan-view-charts.c: the plan view's charts, and which of them apply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "qm-catalog.h"
#include "qm-a11y.h"
#include "qm-chart-cashflow.h"
#include "qm-chart-widget.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-plan-report.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-print.h"
#include "qm-text.h"

/* ------------------------------------------------------------------ */
/* Charts                                                              */

typedef struct
{
  QmPlanView      *view;
  QmPlanChartKind  kind;
} ChartData;

static void
draw_chart (const QmChartFrame *frame,
            gpointer            user_data)
{
  ChartData *d = user_data;
  QmPlanView *self = d->view;

  if (self->editor == NULL)
    return;
  /* The Quote section's quote, which may be at the store's exchange rate
   * (qm-plan-view-quote.c). */
  if (d->kind == QM_PLAN_CHART_CASHFLOW)
    {
      memset (self->layouts[d->kind], 0, sizeof *self->layouts[d->kind]);
      self->layouts[d->kind]->kind = d->kind;
      qm_chart_render_cashflow (frame, self->quote, &self->layouts[d->kind]->cashflow);
      return;
    }
  qm_plan_chart_draw_with_layout (d->kind, frame, qm_plan_editor_get_plan (self->editor),
                                  qm_plan_editor_get_estimate (self->editor), self->curves,
                                  QM_BYTES_GB, self->layouts[d->kind]);
}

static gboolean
in_rect (const QmRect *r,
         double        x,
         double        y)
{
  return r->width > 0 && r->height > 0 &&
         x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
}

/* The index of the x value nearest the pixel column @px, or -1. */
static int
nearest_x (const QmAxis *axis,
           const double *xs,
           guint         n,
           double        px)
{
  int best = -1;
  double best_d = G_MAXDOUBLE;

  for (guint i = 0; i < n; i++)
    {
      double d = fabs (qm_axis_to_pixel (axis, xs[i]) - px);

      if (xs[i] > 0 && d < best_d)
        {
          best = (int) i;
          best_d = d;
        }
    }
  return best;
}

static char *
chart_tooltip (double   x,
               double   y,
               gpointer user_data)
{
  ChartData *d = user_data;
  QmPlanView *self = d->view;
  const QmPlanChartLayout *l = self->layouts[d->kind];
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF], m[QM_FORMAT_BUF], d4[QM_FORMAT_BUF];

  switch (d->kind)
    {
    case QM_PLAN_CHART_GPUS_TIME:
      {
        const QmGpusTimeCurve *cv = &self->curves->gpus_time;
        int i = qm_chart_gpus_time_hit (&l->gpus_time, cv, x, y);

        if (i < 0)
          return NULL;
        return g_strdup_printf (_("%s GPUs: %s with failures, %s ideal%s%s%s"),
                                FMT (a, qm_format_number, cv->gpus[i], 0),
                                cv->days[i] > 0 ? FMT (b, qm_format_days, cv->days[i]) : "–",
                                FMT (c, qm_format_days, cv->ideal_days[i]),
                                cv->cost[i] > 0 ? _("; the run costs ") : "",
                                cv->cost[i] > 0 ? FMT (m, qm_format_money, cv->cost[i], p->pricing.currency) : "",
                                i == cv->knee ? _(" (the knee: more GPUs stop paying)") : "");
      }
    case QM_PLAN_CHART_VRAM:
      {
        guint bar, part;
        const QmMemoryBreakdown *mb;
        const double *parts;

        if (!qm_chart_vram_hit (&l->vram, x, y, &bar, &part) || bar >= l->n_vram_bars)
          return NULL;
        mb = &l->vram_bars[bar];
        parts = (const double[QM_VRAM_N_PARTS]) {
          mb->weights, mb->gradients, mb->optimizer, mb->activations, mb->kv_cache, mb->overhead,
        };
        return g_strdup_printf (_("%s, %s: %s of %s in all (%s)"),
                                l->vram_labels[bar], qm_chart_vram_part_name (part),
                                FMT (a, qm_format_bytes, parts[MIN (part, QM_VRAM_N_PARTS - 1)], QM_BYTES_GB),
                                FMT (b, qm_format_bytes, mb->total, QM_BYTES_GB),
                                mb->fits ? _("fits") : _("does not fit"));
      }
    case QM_PLAN_CHART_POWER:
      {
        const QmNodeWatts *nw = &e->power.node;
        const double node[QM_POWER_NODE_PARTS] = {
          nw->gpus, nw->cpus, nw->memory, nw->nics, nw->storage, nw->other,
        };

        for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
          if (in_rect (&l->power.node_parts[i], x, y))
            return g_strdup_printf (_("One node, %s: %s"), qm_chart_power_node_part_name (i),
                                    FMT (a, qm_format_si, node[i], "W"));
        for (guint k = 0; k < 2; k++)
          for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
            if (in_rect (&l->power.cluster_parts[k][i], x, y))
              return g_strdup_printf (k == 0 ? _("Cluster, provisioned, %s: %s") : _("Cluster, average, %s: %s"),
                                      qm_chart_power_cluster_part_name (i),
                                      FMT (a, qm_format_si, qm_chart_power_cluster_part_kw (&e->power, i, k == 1) * 1e3, "W"));
        return NULL;
      }
    case QM_PLAN_CHART_RACKS:
      {
        int g = qm_chart_racks_hit (&l->racks, x, y);
        const QmRackGroup *rg;
        static const char *kinds[] = { N_("compute"), N_("compute (partly filled)"), N_("network"), N_("storage") };

        if (g < 0)
          return NULL;
        rg = &l->racks.groups[g];
        return g_strdup_printf (_("%u × %s rack: %u servers, %u switches, %s of %s%s"),
                                rg->count, _(kinds[MIN ((guint) rg->kind, 3u)]), rg->servers, rg->switches,
                                FMT (a, qm_format_si, rg->kw * 1e3, "W"),
                                FMT (b, qm_format_si, p->facility.rack_kw * 1e3, "W"),
                                rg->liquid ? _(", liquid-cooled") : "");
      }
    case QM_PLAN_CHART_LATENCY:
      {
        const QmServingCurve *cv = &self->curves->latency;
        int i = nearest_x (&l->latency.x_axis, cv->rpm, cv->n, x);

        if (i < 0 || !(in_rect (&l->latency.ttft_plot, x, y) || in_rect (&l->latency.tpot_plot, x, y)))
          return NULL;
        return g_strdup_printf (_("%s requests/min: time to first token %s ms (p50), %s ms (p99); "
                                  "time per output token %s ms (p50), %s ms (p99)"),
                                FMT (a, qm_format_number, cv->rpm[i], 0),
                                FMT (b, qm_format_number, cv->ttft_p50_ms[i], 0),
                                FMT (c, qm_format_number, cv->ttft_p99_ms[i], 0),
                                FMT (m, qm_format_number, cv->tpot_p50_ms[i], 1),
                                FMT (d4, qm_format_number, cv->tpot_p99_ms[i], 1));
      }
    case QM_PLAN_CHART_THROUGHPUT:
      {
        const QmThroughputCurve *cv = &self->curves->throughput;
        int i = nearest_x (&l->throughput.x_axis, cv->concurrency, cv->n, x);

        if (i < 0 || !in_rect (&l->throughput.plot, x, y))
          return NULL;
        return g_strdup_printf (_("%s sequences per replica: %s output tokens/s per GPU"),
                                FMT (a, qm_format_number, cv->concurrency[i], 0),
                                FMT (b, qm_format_number, cv->tokens_per_s_per_gpu[i], 0));
      }
    case QM_PLAN_CHART_CASHFLOW:
      return qm_plan_view_quote_tooltip (self, x, y);
    case QM_N_PLAN_CHARTS:
    default:
      return NULL;
    }
}

void
qm_plan_view_build_charts (QmPlanView *self)
{
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    {
      GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *title = gtk_label_new (_(qm_plan_chart_title ((QmPlanChartKind) k)));
      GtkWidget *chart = qm_chart_widget_new ();
      ChartData *d = g_new0 (ChartData, 1);

      d->view = self;
      d->kind = (QmPlanChartKind) k;
      self->layouts[k] = g_new0 (QmPlanChartLayout, 1);
      self->charts[k] = chart;

      gtk_widget_add_css_class (card, "card");
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_set_margin_top (title, 12);
      gtk_widget_set_margin_start (title, 12);
      gtk_widget_set_margin_end (title, 12);
      gtk_widget_set_margin_start (chart, 6);
      gtk_widget_set_margin_end (chart, 6);
      gtk_widget_set_margin_bottom (chart, 6);
      gtk_widget_add_css_class (title, "heading");
      gtk_widget_set_vexpand (chart, TRUE);
      /* Latency has two panels over one axis: give it the room of two. */
      gtk_widget_set_size_request (chart, -1, k == QM_PLAN_CHART_LATENCY ? 440 : 300);
      gtk_widget_set_name (chart, qm_plan_chart_kind_to_string ((QmPlanChartKind) k));
      /* Read back by the chart, which adds the point its keyboard probe
       * reads. */
      qm_a11y_label (chart, _(qm_plan_chart_title ((QmPlanChartKind) k)));
      qm_chart_widget_set_draw_func (QM_CHART_WIDGET (chart), draw_chart, chart_tooltip, d, g_free);
      gtk_box_append (GTK_BOX (card), title);
      gtk_box_append (GTK_BOX (card), chart);
      /* The cash flow is the quote's: it sits on the Quote section. */
      if (k == QM_PLAN_CHART_CASHFLOW)
        gtk_box_append (self->quote_chart_box, card);
      else
        {
          gtk_flow_box_append (self->charts_box, qm_plan_view_capped_new (card, CHART_CARD_NATURAL));
          /* The chart is the Tab stop, not an unnamed cell around it. */
          gtk_widget_set_focusable (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), FALSE);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Serving sweeps in a worker (issue 31 item 4)                        */

/* One sweep: copies of the plan and its estimate for the worker, and
 * where to send its points. Shared by the worker and the main thread's
 * callbacks (atomic refcount). */
typedef struct
{
  GWeakRef      view;
  guint         generation;
  QmPlan       *plan;
  QmEstimate   *estimate;
  QmPlanCurves *curves;        /* the worker's */
  GMainContext *context;       /* the main thread's */
  GCancellable *cancellable;
  gboolean      sent_done;     /* the worker's */
} SweepJob;

static void
sweep_job_clear (gpointer data)
{
  SweepJob *job = data;

  g_weak_ref_clear (&job->view);
  g_free (job->plan);
  g_free (job->estimate);
  g_free (job->curves);
  g_main_context_unref (job->context);
  g_object_unref (job->cancellable);
}

static void
sweep_job_unref (gpointer job)
{
  g_atomic_rc_box_release_full (job, sweep_job_clear);
}

/* Points to show, copied out of the worker. */
typedef struct
{
  SweepJob          *job;
  QmServingCurve     latency;
  QmThroughputCurve  throughput;
  gboolean           done;
} SweepPoints;

static void
sweep_points_free (gpointer data)
{
  SweepPoints *pts = data;

  sweep_job_unref (pts->job);
  g_free (pts);
}

/* Until the sweep is done, the plan's own latency point (from the
 * estimate) stays among the points, in order of rate. */
static void
merge_plan_point (QmServingCurve       *to,
                  const QmServingCurve *first)
{
  guint at = 0;

  if (first->n == 0 || to->n >= QM_SERVING_CURVE_MAX)
    return;
  while (at < to->n && to->rpm[at] < first->rpm[0])
    at++;
  if (at < to->n && to->rpm[at] == first->rpm[0])
    return;
#define SHIFT(a) memmove (&to->a[at + 1], &to->a[at], (to->n - at) * sizeof to->a[0]); to->a[at] = first->a[0]
  SHIFT (rpm);
  SHIFT (ttft_p50_ms);
  SHIFT (ttft_p99_ms);
  SHIFT (tpot_p50_ms);
  SHIFT (tpot_p99_ms);
#undef SHIFT
  to->n++;
}

/* On the main thread: shows the points if the plan did not change since
 * the sweep started. */
static gboolean
sweep_points_apply (gpointer data)
{
  SweepPoints *pts = data;
  g_autoptr(QmPlanView) self = g_weak_ref_get (&pts->job->view);
  QmServingCurve first;
  QmThroughputCurve unused;

  if (self == NULL || self->editor == NULL || pts->job->generation != self->sweep_generation ||
      g_cancellable_is_cancelled (pts->job->cancellable))
    return G_SOURCE_REMOVE;
  qm_plan_serving_curves_first (pts->job->plan, pts->job->estimate, &first, &unused);
  self->curves->latency = pts->latency;
  self->curves->throughput = pts->throughput;
  if (!pts->done)
    merge_plan_point (&self->curves->latency, &first);
  else
    self->sweeping = FALSE;
  gtk_widget_queue_draw (self->charts[QM_PLAN_CHART_LATENCY]);
  gtk_widget_queue_draw (self->charts[QM_PLAN_CHART_THROUGHPUT]);
  return G_SOURCE_REMOVE;
}

/* In the worker: sends the points so far to the main thread. */
static gboolean
sweep_progress (const QmServingCurve    *latency,
                const QmThroughputCurve *throughput,
                gboolean                 done,
                gpointer                 user_data)
{
  SweepJob *job = user_data;
  SweepPoints *pts;
  GSource *source;

  if (g_cancellable_is_cancelled (job->cancellable))
    return FALSE;
  pts = g_new0 (SweepPoints, 1);
  pts->job = g_atomic_rc_box_acquire (job);
  pts->latency = *latency;
  pts->throughput = *throughput;
  pts->done = done;
  job->sent_done = done;
  /* Always through a source on the main context: g_main_context_invoke ()
   * would run the callback right here, in the worker, whenever the main
   * thread is not iterating its loop. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_callback (source, sweep_points_apply, pts, sweep_points_free);
  g_source_set_static_name (source, "[quartermaster] serving sweep points");
  g_source_attach (source, job->context);
  g_source_unref (source);
  return TRUE;
}

static void
sweep_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SweepJob *job = task_data;

  qm_plan_serving_curves_full (job->plan, job->estimate, &job->curves->latency,
                               &job->curves->throughput, sweep_progress, job);
  /* A plan without curves after all: the view still hears that it is done. */
  if (!job->sent_done)
    sweep_progress (&job->curves->latency, &job->curves->throughput, TRUE, job);
  g_task_return_boolean (task, TRUE);
}

/* Starts the serving sweeps for the plan as it is now, in a worker, after
 * cancelling the one before. */
static void
start_sweep (QmPlanView *self)
{
  g_autoptr(GTask) task = NULL;
  SweepJob *job;

  if (self->sweep_cancellable != NULL)
    g_cancellable_cancel (self->sweep_cancellable);
  g_clear_object (&self->sweep_cancellable);
  self->sweep_generation++;
  self->sweeping = FALSE;
  if (!qm_plan_chart_applies (QM_PLAN_CHART_LATENCY, qm_plan_editor_get_estimate (self->editor)))
    return;

  self->sweep_cancellable = g_cancellable_new ();
  job = g_atomic_rc_box_new0 (SweepJob);
  g_weak_ref_init (&job->view, self);
  job->generation = self->sweep_generation;
  job->plan = g_memdup2 (qm_plan_editor_get_plan (self->editor), sizeof (QmPlan));
  job->estimate = g_memdup2 (qm_plan_editor_get_estimate (self->editor), sizeof (QmEstimate));
  job->curves = g_new0 (QmPlanCurves, 1);
  job->context = g_main_context_ref_thread_default ();
  job->cancellable = g_object_ref (self->sweep_cancellable);
  self->sweeping = TRUE;

  task = g_task_new (NULL, self->sweep_cancellable, NULL, NULL);
  g_task_set_source_tag (task, start_sweep);
  g_task_set_task_data (task, job, sweep_job_unref);
  g_task_run_in_thread (task, sweep_thread);
}

void
qm_plan_view_cancel_sweeps (QmPlanView *self)
{
  if (self->sweep_cancellable != NULL)
    g_cancellable_cancel (self->sweep_cancellable);
  g_clear_object (&self->sweep_cancellable);
  self->sweep_generation++;
  self->sweeping = FALSE;
}

const QmPlanCurves *
qm_plan_view_get_curves (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return self->curves;
}

gboolean
qm_plan_view_get_sweeping (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return self->sweeping;
}

void
qm_plan_view_update_charts (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);

  /* Once per change: the GPUs-vs-time curve runs the layout search at ~20
   * counts (a few ms); the serving curves start from the plan's own point
   * and are swept in a worker, their points shown as they come. */
  qm_plan_curves_first (p, e, self->curves);
  start_sweep (self);
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    {
      g_autofree char *description = qm_plan_chart_describe_with_curves ((QmPlanChartKind) k, p, e,
                                                                         self->curves);

      qm_chart_widget_set_description (QM_CHART_WIDGET (self->charts[k]), description);
      gtk_widget_queue_draw (self->charts[k]);
    }
  /* Time to train is for training, latency and throughput for serving. */
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    if (k != QM_PLAN_CHART_CASHFLOW)
      gtk_widget_set_visible (gtk_widget_get_ancestor (self->charts[k], GTK_TYPE_FLOW_BOX_CHILD),
                              qm_plan_chart_applies ((QmPlanChartKind) k, e));
}
