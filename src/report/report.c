/* report.c — renders comparisons (compare.c) as one self-contained HTML file: tables, and charts drawn as
 * inline SVG by hand (bars, a scatter plot, heat maps). No script and no external resource, on purpose: the
 * report must open from a mail attachment or an air-gapped machine exactly as it was written.
 * Writes only to the FILE it is given; must not print or exit. */
#include "report.h"
#include "peaks.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                                      "#17becf"};
#define COLOR(i) palette[(i) % VKAT_COUNTOF(palette)]

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void fig(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, fmt, v);
}

/* Heat colour for a fraction in [0, 1]: pale yellow to dark blue-green, readable under black or white text. */
static void heat_color(double t, char *buf, size_t size)
{
    t = fmin(1, fmax(0, t));
    int r = (int)(255 - t * (255 - 8)), g = (int)(247 - t * (247 - 104)), b = (int)(188 - t * (188 - 172));
    snprintf(buf, size, "#%02x%02x%02x", r, g, b);
}

/* ---- Tables ----------------------------------------------------------------------------------------------------- */

static void device_table(FILE *f, const vkat_peaks *peaks, size_t n)
{
    fputs("<h2>Devices</h2>\n", f);
    if (n == 0) {
        fputs("<p>No device peaks in the database (run <code>vkautotune peaks</code> on each machine).</p>\n", f);
        return;
    }
    fputs("<table class=\"devices\"><tr><th>device</th><th>vendor</th><th>driver</th><th>memory GB/s</th>"
          "<th>fp32 TFLOP/s</th><th>fp16 TFLOP/s</th><th>host&#8594;device GB/s</th><th>device&#8594;host GB/s</th>"
          "<th>tensor-core peaks TFLOP/s</th><th>measured</th></tr>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const vkat_peaks *p = &peaks[i];
        fputs("<tr><td>", f);
        esc(f, p->device.name);
        fputs("</td><td>", f);
        esc(f, p->device.vendor);
        fputs("</td><td>", f);
        esc(f, p->device.driver_version_string);
        fputs("</td><td class=\"num\">", f);
        fig(f, p->mem_gbps, "%.4g");
        fputs("</td><td class=\"num\">", f);
        fig(f, p->fp32_tflops, "%.4g");
        fputs("</td><td class=\"num\">", f);
        fig(f, p->fp16_tflops, "%.4g");
        fputs("</td><td class=\"num\">", f);
        fig(f, p->h2d_gbps, "%.4g");
        fputs("</td><td class=\"num\">", f);
        fig(f, p->d2h_gbps, "%.4g");
        fputs("</td><td>", f);
        if (!p->coopmat_count)
            fputs("none measured", f);
        for (uint32_t k = 0; k < p->coopmat_count && k < VKAT_MAX_COOPMAT_PEAKS; k++) {
            char line[160];
            vkat_coopmat_peak_format(&p->coopmat[k], line, sizeof line);
            fputs(k ? "<br>" : "", f);
            esc(f, line);
        }
        fputs("</td><td>", f);
        esc(f, p->created);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void kernel_table(FILE *f, const vkat_comparison *c)
{
    fputs("<table class=\"compare\"><tr><th></th>", f);
    for (size_t i = 0; i < c->device_count; i++) {
        fprintf(f, "<th><span class=\"swatch\" style=\"background:%s\"></span>", COLOR(i));
        esc(f, c->devices[i].device.name);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    static const char *const labels[] = {"driver", "problem", "variants ok / stored", "best median ms", "TFLOP/s",
                                         "GB/s", "fraction of peak", "winner"};
    for (size_t l = 0; l < VKAT_COUNTOF(labels); l++) {
        fprintf(f, "<tr><th>%s</th>", labels[l]);
        for (size_t i = 0; i < c->device_count; i++) {
            const vkat_cmp_device *d = &c->devices[i];
            const vkat_row *w = d->ok_count ? &d->rows[0] : NULL;
            fputs(l >= 3 && l <= 6 ? "<td class=\"num\">" : "<td>", f);
            switch (l) {
            case 0:
                esc(f, d->device.vendor);
                fputs(" ", f);
                esc(f, d->device.driver_version_string);
                break;
            case 1: esc(f, d->problem); break;
            case 2: fprintf(f, "%zu / %zu", d->ok_count, d->count); break;
            case 3: fig(f, w ? w->median_s * 1e3 : NAN, "%.4f"); break;
            case 4: fig(f, w && w->flops > 0 ? w->tflops : NAN, "%.4g"); break;
            case 5: fig(f, w && w->bytes > 0 ? w->gbps : NAN, "%.4g"); break;
            case 6: fig(f, w && d->has_peaks ? 100 * vkat_peaks_fraction(&d->peaks, w) : NAN, "%.1f%%"); break;
            default: fputs("<code>", f), esc(f, w ? w->config : "no correct variant"), fputs("</code>", f);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void portability_table(FILE *f, const vkat_comparison *c)
{
    size_t nd = c->device_count;
    fputs("<h3>Portability</h3>\n<p>Each row device's winner as measured on the column device, as a fraction of the "
          "column device's own best (1.00: as fast as its own winner; &#8211;: not measured there).</p>\n",
          f);
    fputs("<table class=\"portability\"><tr><th>winner of &#8595; run on &#8594;</th>", f);
    for (size_t j = 0; j < nd; j++) {
        fputs("<th>", f);
        esc(f, c->devices[j].device.name);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t i = 0; i < nd; i++) {
        fputs("<tr><th>", f);
        esc(f, c->devices[i].device.name);
        if (c->devices[i].ok_count) {
            fputs("<br><code>", f);
            esc(f, c->devices[i].rows[0].config);
            fputs("</code>", f);
        }
        fputs("</th>", f);
        for (size_t j = 0; j < nd; j++) {
            int st = c->port_state[i * nd + j];
            if (st == VKAT_PORT_OK) {
                char col[16];
                heat_color(c->portability[i * nd + j], col, sizeof col);
                fprintf(f, "<td class=\"num\" style=\"background:%s;color:%s\">%.2f</td>", col,
                        c->portability[i * nd + j] > 0.6 ? "#fff" : "#000", c->portability[i * nd + j]);
            } else if (st == VKAT_PORT_RACED) {
                fprintf(f, "<td class=\"num\" title=\"raced out there: at most this fraction\">&le;%.2f</td>",
                        c->portability[i * nd + j]);
            } else {
                fprintf(f, "<td class=\"num\">%s</td>", st == VKAT_PORT_FAILED ? "failed" : "&#8211;");
            }
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* ---- Charts ------------------------------------------------------------------------------------------------------ */

#define BAR_TOP 10

static void bars(FILE *f, const vkat_comparison *c)
{
    fputs("<h3>Best variants per device</h3>\n<div class=\"row\">\n", f);
    for (size_t i = 0; i < c->device_count; i++) {
        const vkat_cmp_device *d = &c->devices[i];
        size_t n = d->ok_count < BAR_TOP ? d->ok_count : BAR_TOP;
        const char *unit = "";
        double max = 0;
        for (size_t k = 0; k < n; k++)
            max = fmax(max, vkat_row_throughput(&d->rows[k], &unit));
        int w = 660, label = 300, rowh = 22, h = 40 + (int)n * rowh + 10;
        fprintf(f, "<svg class=\"bars\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", w, h, w, h);
        fputs("<text x=\"0\" y=\"16\" class=\"t\">", f);
        esc(f, d->device.name);
        fputs(" &#8212; ", f);
        esc(f, d->problem);
        fprintf(f, " (%s)</text>", unit);
        for (size_t k = 0; k < n; k++) {
            const vkat_row *r = &d->rows[k];
            double v = vkat_row_throughput(r, &unit);
            double len = max > 0 ? (w - label - 70) * v / max : 0;
            int y = 30 + (int)k * rowh;
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"end\">", label - 6, y + 15);
            esc(f, r->config);
            fprintf(f, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", label, y + 3,
                    len, rowh - 6, COLOR(i));
            esc(f, r->config);
            fprintf(f, ": %.4g %s, %.4f ms</title></rect>", v, unit, r->median_s * 1e3);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"l\">%.4g</text>", label + len + 4, y + 15, v);
        }
        if (n == 0)
            fputs("<text x=\"0\" y=\"44\" class=\"l\">no correct variant</text>", f);
        fputs("</svg>\n", f);
    }
    fputs("</div>\n", f);
}

/* Distinct values of a parameter over every device's ok rows, sorted. */
static size_t param_values(const vkat_comparison *c, const char *param, long long *vals, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < c->device_count; i++)
        for (size_t k = 0; k < c->devices[i].ok_count; k++) {
            long long v;
            if (!vkat_config_value(c->devices[i].rows[k].config, param, &v))
                continue;
            size_t p = 0;
            while (p < n && vals[p] < v)
                p++;
            if (p < n && vals[p] == v)
                continue;
            if (n == cap)
                continue;
            memmove(vals + p + 1, vals + p, (n - p) * sizeof *vals);
            vals[p] = v;
            n++;
        }
    return n;
}

static size_t index_of(const long long *vals, size_t n, long long v)
{
    for (size_t i = 0; i < n; i++)
        if (vals[i] == v)
            return i;
    return n;
}

#define MAX_VALUES 64

static void scatter(FILE *f, const vkat_comparison *c, const char *param)
{
    long long vals[MAX_VALUES];
    size_t nv = param_values(c, param, vals, MAX_VALUES);
    fputs("<h3>Every measured variant against ", f);
    esc(f, param);
    fputs("</h3>\n<p>Each point is one correct variant; height is its throughput as a fraction of its device's best, "
          "so devices of different speeds and problem sizes share one scale.</p>\n",
          f);
    if (nv == 0) {
        fputs("<p>No variant has this parameter.</p>\n", f);
        return;
    }
    int w = 1320, h = 380, left = 60, right = 180, top = 20, bottom = 50;
    int pw = w - left - right, ph = h - top - bottom;
    double band = (double)pw / (double)nv;
    fprintf(f, "<svg class=\"scatter\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", w, h, w, h);
    for (int t = 0; t <= 4; t++) {
        double y = top + ph - ph * t / 4.0;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>", left, left + pw, y, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"l\" text-anchor=\"end\">%.2f</text>", left - 6, y + 4, t / 4.0);
    }
    for (size_t v = 0; v < nv; v++)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"l\" text-anchor=\"middle\">%lld</text>",
                left + band * ((double)v + 0.5), top + ph + 18, vals[v]);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"t\" text-anchor=\"middle\">", left + pw / 2.0, h - 8);
    esc(f, param);
    fputs("</text>", f);
    fprintf(f, "<text x=\"14\" y=\"%.1f\" class=\"l\" transform=\"rotate(-90 14 %.1f)\" text-anchor=\"middle\">"
               "fraction of the device's best</text>",
            top + ph / 2.0, top + ph / 2.0);
    for (size_t i = 0; i < c->device_count; i++) {
        const vkat_cmp_device *d = &c->devices[i];
        const char *unit;
        double best = d->ok_count ? vkat_row_throughput(&d->rows[0], &unit) : 0;
        /* Devices side by side within each band, points spread deterministically across their slot. */
        double slot = band * 0.8 / (double)c->device_count;
        for (size_t k = 0; k < d->ok_count; k++) {
            long long pv;
            if (!vkat_config_value(d->rows[k].config, param, &pv) || best <= 0)
                continue;
            size_t vi = index_of(vals, nv, pv);
            double frac = vkat_row_throughput(&d->rows[k], &unit) / best;
            double jitter = (double)((k * 2654435761u) % 1000) / 1000.0;
            double x = left + band * (double)vi + band * 0.1 + slot * ((double)i + 0.15 + 0.7 * jitter);
            double y = top + ph - ph * fmin(1, frac);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.7\"><title>", x, y,
                    COLOR(i));
            esc(f, d->device.name);
            fputs(": ", f);
            esc(f, d->rows[k].config);
            fprintf(f, " (%.2f)</title></circle>", frac);
        }
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", left + pw + 14,
                top + 8 + (int)i * 20, COLOR(i));
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\">", left + pw + 32, top + 18 + (int)i * 20);
        char name[24];
        snprintf(name, sizeof name, "%.23s", d->device.name);
        esc(f, name);
        fputs("</text>", f);
    }
    fputs("</svg>\n", f);
}

static void heatmaps(FILE *f, const vkat_comparison *c, const char *px, const char *py)
{
    long long xs[MAX_VALUES], ys[MAX_VALUES];
    size_t nx = param_values(c, px, xs, MAX_VALUES), ny = param_values(c, py, ys, MAX_VALUES);
    fputs("<h3>Heat map: ", f);
    esc(f, px);
    fputs(" &#215; ", f);
    esc(f, py);
    fputs("</h3>\n<p>Each cell: the best variant with those two values, as a fraction of the device's best "
          "(&#8211;: none measured or none correct).</p>\n<div class=\"row\">\n",
          f);
    if (nx == 0 || ny == 0) {
        fputs("<p>No variant has both parameters.</p></div>\n", f);
        return;
    }
    double *cell = malloc(nx * ny * sizeof *cell);
    if (!cell)
        return;
    for (size_t i = 0; i < c->device_count; i++) {
        const vkat_cmp_device *d = &c->devices[i];
        const char *unit;
        double best = d->ok_count ? vkat_row_throughput(&d->rows[0], &unit) : 0;
        for (size_t k = 0; k < nx * ny; k++)
            cell[k] = NAN;
        for (size_t k = 0; k < d->ok_count && best > 0; k++) {
            long long a, b;
            if (!vkat_config_value(d->rows[k].config, px, &a) || !vkat_config_value(d->rows[k].config, py, &b))
                continue;
            size_t xi = index_of(xs, nx, a), yi = index_of(ys, ny, b);
            double v = vkat_row_throughput(&d->rows[k], &unit) / best;
            if (isnan(cell[yi * nx + xi]) || v > cell[yi * nx + xi])
                cell[yi * nx + xi] = v;
        }
        int cw = 56, ch = 28, left = 70, top = 40;
        int w = left + (int)nx * cw + 10, h = top + (int)ny * ch + 40;
        fprintf(f, "<svg class=\"heatmap\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", w, h, w,
                h);
        fputs("<text x=\"0\" y=\"16\" class=\"t\">", f);
        esc(f, d->device.name);
        fputs("</text>", f);
        for (size_t yi = 0; yi < ny; yi++) {
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"end\">", left - 6,
                    top + (int)yi * ch + ch / 2 + 4);
            esc(f, py);
            fprintf(f, "=%lld</text>", ys[yi]);
            for (size_t xi = 0; xi < nx; xi++) {
                double v = cell[yi * nx + xi];
                char col[16] = "#eeeeee";
                if (!isnan(v))
                    heat_color(v, col, sizeof col);
                int x = left + (int)xi * cw, y = top + (int)yi * ch;
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#fff\"/>", x, y,
                        cw, ch, col);
                if (isnan(v))
                    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"c\" text-anchor=\"middle\">&#8211;</text>", x + cw / 2,
                            y + ch / 2 + 4);
                else
                    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"c\" text-anchor=\"middle\" fill=\"%s\">%.2f</text>",
                            x + cw / 2, y + ch / 2 + 4, v > 0.6 ? "#fff" : "#000", v);
            }
        }
        for (size_t xi = 0; xi < nx; xi++)
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"middle\">%lld</text>",
                    left + (int)xi * cw + cw / 2, top + (int)ny * ch + 16, xs[xi]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"middle\">", left + (int)nx * cw / 2,
                top + (int)ny * ch + 32);
        esc(f, px);
        fputs("</text>", f);
        fputs("</svg>\n", f);
    }
    free(cell);
    fputs("</div>\n", f);
}

/* ---- The document ------------------------------------------------------------------------------------------------ */

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1360px}"
    "table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;"
    "vertical-align:top}td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f4f4f4}"
    "code{font-size:12px}.row{display:flex;flex-wrap:wrap;gap:16px}svg{background:#fff}"
    "svg .t{font:bold 13px system-ui,sans-serif}svg .l{font:11px system-ui,sans-serif;fill:#333}"
    "svg .c{font:11px system-ui,sans-serif}svg .grid{stroke:#ddd}.note{background:#fff8e0;padding:6px 10px;"
    "border-left:4px solid #e0b000}.swatch{display:inline-block;width:10px;height:10px;margin-right:6px}";

vkat_result vkat_report_write(FILE *f, const vkat_comparison *cs, size_t count, const vkat_peaks *peaks,
                              size_t peak_count, const vkat_report_opts *opts, vkat_error *err)
{
    vkat_report_opts o = opts ? *opts : (vkat_report_opts){0};
    const char *title = o.title ? o.title : "vkautotune report";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    esc(f, title);
    fprintf(f, "</title><style>%s</style></head>\n<body>\n<h1>", css);
    esc(f, title);
    fputs("</h1>\n", f);
    if (o.source) {
        fputs("<p>From <code>", f);
        esc(f, o.source);
        fputs("</code>. Fraction of peak: the roofline bound max(flops / fp32 peak, bytes / memory peak) over the "
              "measured median, with each device's peaks measured by <code>vkautotune peaks</code>.</p>\n",
              f);
    }
    device_table(f, peaks, peak_count);
    for (size_t k = 0; k < count; k++) {
        const vkat_comparison *c = &cs[k];
        fputs("<section class=\"kernel\" id=\"kernel-", f);
        esc(f, c->kernel);
        fputs("\">\n<h2>Kernel ", f);
        esc(f, c->kernel);
        fputs("</h2>\n", f);
        if (!c->same_problem)
            fputs("<p class=\"note\">The devices tuned different problem sizes (a CPU device takes the space's "
                  "[problem.cpu]): times and throughputs are not comparable across devices; the fractions (of "
                  "peak, of each device's best) are.</p>\n",
                  f);
        if (!c->same_template)
            fputs("<p class=\"note\">The template or the space differs between devices.</p>\n", f);
        kernel_table(f, c);
        bars(f, c);
        char p1[64] = "", p2[64] = "";
        const char *first = c->device_count && c->devices[0].count ? c->devices[0].rows[0].config : "";
        if (o.param)
            snprintf(p1, sizeof p1, "%s", o.param);
        else
            vkat_config_param_name(first, 0, p1, sizeof p1);
        if (o.param2)
            snprintf(p2, sizeof p2, "%s", o.param2);
        else
            for (size_t i = 0; vkat_config_param_name(first, i, p2, sizeof p2); i++)
                if (strcmp(p2, p1))
                    break;
        if (p1[0])
            scatter(f, c, p1);
        if (p1[0] && p2[0] && strcmp(p1, p2))
            heatmaps(f, c, p1, p2);
        portability_table(f, c);
        fputs("</section>\n", f);
    }
    fputs("</body></html>\n", f);
    if (ferror(f))
        return vkat_fail(err, VKAT_ERR_IO, NULL, 0, "cannot write the report");
    return VKAT_OK;
}
