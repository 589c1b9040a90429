/* render_report.c: the method profile as text, CSV, JSON or HTML.
 * Every writer shows the same numbers in the same order (report.h); weights
 * are fixed point (folded input may have decimals), percentages are of the
 * report's total with two decimals. */
#include "render.h"
#include "core/escape.h"
#include "core/report.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---- */

static void weight_str(char *s, size_t size, uint64_t v, unsigned decimals)
{
	char b[AF_FIXED_POINT_MAX];
	af_fixed_point(b, v, decimals);
	snprintf(s, size, "%s", b);
}

/* part / whole in percent, two decimals, rounded from the integers. */
static void pct_str(char *s, size_t size, uint64_t part, uint64_t whole)
{
	if (!whole) {
		snprintf(s, size, "0.00");
		return;
	}
	double h = (double)part * 10000.0 / (double)whole + 0.5;
	uint64_t v = h < 1e18 ? (uint64_t)h : UINT64_C(1000000000000000000);   /* a part over the whole: a wrapped sum, never UB */
	snprintf(s, size, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
}

static size_t shown(const struct af_report *r, const struct af_report_opts *o)
{
	return o->top && o->top < r->nmethods ? o->top : r->nmethods;
}

static const char *other_name(const struct af_report *r, uint32_t m)
{
	return m == AF_NONE ? AF_REPORT_TOPLEVEL : af_tree_name(r->tree, r->methods[m].name);
}

/* All calls of the method an edge's calls are a part of. */
static uint64_t all_calls(const struct af_report_method *m)
{
	return m->calls + m->recursive_calls;
}

/* ---- text ---- */

/* Names in text go to terminals: no control sequence gets through. */
static void term(struct af_sink *out, const char *s)
{
	af_escape_term(out, s, strlen(s));
}

struct widths { int excl, incl, calls; };

static void measure(const struct af_report *r, const struct af_report_opts *o, struct widths *w)
{
	char s[64];
	*w = (struct widths){ 9, 9, 9 };
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		int n;
		weight_str(s, sizeof s, m->exclusive, o->decimals);
		if ((n = (int)strlen(s)) > w->excl)
			w->excl = n;
		weight_str(s, sizeof s, m->inclusive, o->decimals);
		if ((n = (int)strlen(s)) > w->incl)
			w->incl = n;
		n = snprintf(s, sizeof s, "%" PRIu64 "+%" PRIu64, m->calls, m->recursive_calls);
		if (n > w->calls)
			w->calls = n;
	}
}

static void text_table(const struct af_report *r, const struct af_report_opts *o,
		       const struct widths *w, struct af_sink *out)
{
	char e[64], ep[32], in[64], ip[32];
	af_sink_printf(out, "%*s %7s  %*s %7s  %*s  Method\n", w->excl, "Exclusive", "%",
		       w->incl, "Inclusive", "%", w->calls, r->has_calls ? "Calls+Rec" : "");
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		weight_str(e, sizeof e, m->exclusive, o->decimals);
		pct_str(ep, sizeof ep, m->exclusive, r->total);
		weight_str(in, sizeof in, m->inclusive, o->decimals);
		pct_str(ip, sizeof ip, m->inclusive, r->total);
		af_sink_printf(out, "%*s %6s%%  %*s %6s%%  ", w->excl, e, ep, w->incl, in, ip);
		if (r->has_calls) {
			char c[48];
			snprintf(c, sizeof c, "%" PRIu64 "+%" PRIu64, m->calls, m->recursive_calls);
			af_sink_printf(out, "%*s", w->calls, c);
		} else {
			af_sink_printf(out, "%*s", w->calls, "");
		}
		af_sink_printf(out, "  [%zu] ", i + 1);
		term(out, af_tree_name(r->tree, m->name));
		af_sink_putc(out, '\n');
	}
}

static void text_edges(const struct af_report *r, const struct af_report_opts *o,
		       const char *role, const struct af_report_edge *e, size_t n,
		       const struct af_report_method *self, struct af_sink *out)
{
	for (size_t i = 0; i < n; i++) {
		char nm[64], t[64];
		const struct af_report_method *callee = role[5] == 'r' ? self : &r->methods[e[i].method];
		if (r->has_calls)
			snprintf(nm, sizeof nm, "%" PRIu64 "/%" PRIu64, e[i].calls, all_calls(callee));
		else
			nm[0] = 0;
		weight_str(t, sizeof t, e[i].time, o->decimals);
		af_sink_printf(out, "    %-6s%s %13s %12s  ", role, e[i].recursive ? "*" : " ", nm, t);
		if (e[i].method == AF_NONE)
			af_sink_printf(out, "%s\n", AF_REPORT_TOPLEVEL);
		else
		{
			af_sink_printf(out, "[%" PRIu32 "] ", e[i].method + 1);
			term(out, other_name(r, e[i].method));
			af_sink_putc(out, '\n');
		}
	}
}

static void write_text(const struct af_report *r, const struct af_report_opts *o, struct af_sink *out)
{
	char total[64];
	weight_str(total, sizeof total, r->total, o->decimals);
	af_sink_puts(out, "Method profile: ");
	term(out, o->title ? o->title : "all");
	if (o->source) {
		af_sink_puts(out, "\nFile: ");
		term(out, o->source);
	}
	af_sink_putc(out, '\n');
	if (o->clock)
		af_sink_printf(out, "Clock: %s (%s)\n", o->clock, o->unit);
	af_sink_printf(out, "Total: %s %s in %zu methods", total, o->unit, r->nmethods);
	if (shown(r, o) < r->nmethods)
		af_sink_printf(out, " (top %zu shown)", shown(r, o));
	af_sink_puts(out, "\n\n");
	struct widths w;
	measure(r, o, &w);
	text_table(r, o, &w, out);
	af_sink_printf(out, "\nCallers and callees of each method: calls along the edge / all calls of\n"
		       "the callee, inclusive %s along the edge; * marks recursive calls.\n", o->unit);
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		char e[64], in[64];
		weight_str(e, sizeof e, m->exclusive, o->decimals);
		weight_str(in, sizeof in, m->inclusive, o->decimals);
		af_sink_printf(out, "\n[%zu] ", i + 1);
		term(out, af_tree_name(r->tree, m->name));
		af_sink_printf(out, "\n    exclusive %s, inclusive %s", e, in);
		if (r->has_calls)
			af_sink_printf(out, ", calls %" PRIu64 "+%" PRIu64, m->calls, m->recursive_calls);
		af_sink_putc(out, '\n');
		text_edges(r, o, "caller", m->parents, m->nparents, m, out);
		text_edges(r, o, "callee", m->children, m->nchildren, m, out);
	}
}

/* ---- CSV (RFC 4180) ---- */

static void csv_field(struct af_sink *out, const char *s)
{
	af_escape_csv(out, s, strlen(s));
}

static void csv_edges(const struct af_report *r, const struct af_report_opts *o, size_t rank,
		      const char *relation, const struct af_report_edge *e, size_t n,
		      const struct af_report_method *self, struct af_sink *out)
{
	for (size_t i = 0; i < n; i++) {
		char t[64];
		const struct af_report_method *callee = relation[0] == 'p' ? self : &r->methods[e[i].method];
		af_sink_printf(out, "%zu,", rank);
		csv_field(out, af_tree_name(r->tree, self->name));
		af_sink_printf(out, ",%s,", relation);
		csv_field(out, other_name(r, e[i].method));
		weight_str(t, sizeof t, e[i].time, o->decimals);
		af_sink_puts(out, ",,,,,");
		if (r->has_calls)
			af_sink_printf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				       e[i].recursive ? 0 : e[i].calls, e[i].recursive ? e[i].calls : 0,
				       all_calls(callee));
		else
			af_sink_puts(out, ",,");
		af_sink_printf(out, ",%s\n", t);
	}
}

static void write_csv(const struct af_report *r, const struct af_report_opts *o, struct af_sink *out)
{
	const char *u = strcmp(o->unit, "µs") == 0 ? "us" : o->unit;
	af_sink_printf(out, "rank,method,relation,relative,exclusive_%s,exclusive_pct,inclusive_%s,"
		       "inclusive_pct,calls,recursive_calls,of_calls,edge_%s\n", u, u, u);
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		char e[64], ep[32], in[64], ip[32];
		weight_str(e, sizeof e, m->exclusive, o->decimals);
		pct_str(ep, sizeof ep, m->exclusive, r->total);
		weight_str(in, sizeof in, m->inclusive, o->decimals);
		pct_str(ip, sizeof ip, m->inclusive, r->total);
		af_sink_printf(out, "%zu,", i + 1);
		csv_field(out, af_tree_name(r->tree, m->name));
		af_sink_printf(out, ",method,,%s,%s,%s,%s,", e, ep, in, ip);
		if (r->has_calls)
			af_sink_printf(out, "%" PRIu64 ",%" PRIu64 ",,\n", m->calls, m->recursive_calls);
		else
			af_sink_puts(out, ",,,\n");
	}
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		csv_edges(r, o, i + 1, "parent", m->parents, m->nparents, m, out);
		csv_edges(r, o, i + 1, "child", m->children, m->nchildren, m, out);
	}
}

/* ---- JSON ---- */

static void json_string(struct af_sink *out, const char *s)
{
	af_escape_json(out, s, strlen(s));
}

static void json_edges(const struct af_report *r, const struct af_report_opts *o, const char *key,
		       const struct af_report_edge *e, size_t n, const struct af_report_method *self,
		       struct af_sink *out)
{
	af_sink_printf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		char t[64];
		const struct af_report_method *callee = key[0] == 'p' ? self : &r->methods[e[i].method];
		weight_str(t, sizeof t, e[i].time, o->decimals);
		af_sink_puts(out, i ? ",\n    {" : "\n    {");
		if (e[i].method == AF_NONE)
			af_sink_puts(out, "\"rank\":null");
		else
			af_sink_printf(out, "\"rank\":%" PRIu32, e[i].method + 1);
		af_sink_puts(out, ",\"method\":");
		json_string(out, other_name(r, e[i].method));
		if (r->has_calls)
			af_sink_printf(out, ",\"calls\":%" PRIu64 ",\"of_calls\":%" PRIu64,
				       e[i].calls, all_calls(callee));
		af_sink_printf(out, ",\"time\":%s,\"recursive\":%s}", t, e[i].recursive ? "true" : "false");
	}
	af_sink_putc(out, ']');
}

static void write_json(const struct af_report *r, const struct af_report_opts *o, struct af_sink *out)
{
	char total[64];
	weight_str(total, sizeof total, r->total, o->decimals);
	af_sink_puts(out, "{\"title\":");
	json_string(out, o->title ? o->title : "all");
	af_sink_puts(out, ",\"file\":");
	if (o->source)
		json_string(out, o->source);
	else
		af_sink_puts(out, "null");
	af_sink_puts(out, ",\"clock\":");
	if (o->clock)
		json_string(out, o->clock);
	else
		af_sink_puts(out, "null");
	af_sink_puts(out, ",\"unit\":");
	json_string(out, o->unit);
	af_sink_printf(out, ",\"total\":%s,\"method_count\":%zu,\"methods\":[", total, r->nmethods);
	for (size_t i = 0; i < shown(r, o); i++) {
		const struct af_report_method *m = &r->methods[i];
		char e[64], ep[32], in[64], ip[32];
		weight_str(e, sizeof e, m->exclusive, o->decimals);
		pct_str(ep, sizeof ep, m->exclusive, r->total);
		weight_str(in, sizeof in, m->inclusive, o->decimals);
		pct_str(ip, sizeof ip, m->inclusive, r->total);
		af_sink_printf(out, "%s\n  {\"rank\":%zu,\"method\":", i ? "," : "", i + 1);
		json_string(out, af_tree_name(r->tree, m->name));
		af_sink_printf(out, ",\"exclusive\":%s,\"exclusive_pct\":%s,\"inclusive\":%s,"
			       "\"inclusive_pct\":%s", e, ep, in, ip);
		if (r->has_calls)
			af_sink_printf(out, ",\"calls\":%" PRIu64 ",\"recursive_calls\":%" PRIu64,
				       m->calls, m->recursive_calls);
		json_edges(r, o, "parents", m->parents, m->nparents, m, out);
		json_edges(r, o, "children", m->children, m->nchildren, m, out);
		af_sink_putc(out, '}');
	}
	af_sink_puts(out, "\n]}\n");
}

/* ---- HTML ---- */

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<style>\n"
	"body{font:13px/1.4 Verdana,\"DejaVu Sans\",sans-serif;margin:1em}\n"
	"table{border-collapse:collapse}\n"
	"th,td{padding:2px 8px;text-align:right;vertical-align:top}\n"
	"th{background:#ddd;cursor:pointer;user-select:none;position:sticky;top:0}\n"
	"th.s::after{content:\" \\25BC\"}th.s.up::after{content:\" \\25B2\"}\n"
	"td.m,th.m{text-align:left}\n"
	"tbody tr:nth-child(even){background:#f4f4f4}\n"
	"td.m ul{margin:2px 0 4px 1em;padding:0;list-style:none;font-size:12px}\n"
	"td.m summary{cursor:pointer}\n"
	".r{color:#a05000}\n"
	"</style>\n";

/* Click a column header to sort by it; again to reverse. Cells carry their
 * sort value in data-v. */
static const char html_script[] =
	"<script>\n(function(){\n"
	"var t=document.getElementById(\"profile\"),b=t.tBodies[0],hs=t.tHead.rows[0].cells,cur=-1,up=false;\n"
	"function key(r,c){var d=r.cells[c];var v=d.getAttribute(\"data-v\");"
	"return v===null?d.textContent:+v;}\n"
	"function sort(c){up=c===cur?!up:c===hs.length-1;cur=c;\n"
	"var rows=Array.prototype.slice.call(b.rows);\n"
	"rows.sort(function(x,y){var a=key(x,c),z=key(y,c),s=a<z?-1:a>z?1:0;return up?s:-s;});\n"
	"rows.forEach(function(r){b.appendChild(r);});\n"
	"for(var i=0;i<hs.length;i++){hs[i].classList.toggle(\"s\",i===c);hs[i].classList.toggle(\"up\",i===c&&up);}}\n"
	"for(var i=0;i<hs.length;i++)hs[i].addEventListener(\"click\",sort.bind(null,i));\n"
	"})();\n</script>\n";

static void html_edges(const struct af_report *r, const struct af_report_opts *o, const char *role,
		       const struct af_report_edge *e, size_t n, const struct af_report_method *self,
		       struct af_sink *out)
{
	for (size_t i = 0; i < n; i++) {
		char t[64];
		const struct af_report_method *callee = role[5] == 'r' ? self : &r->methods[e[i].method];
		weight_str(t, sizeof t, e[i].time, o->decimals);
		af_sink_printf(out, "<li%s>%s ", e[i].recursive ? " class=\"r\"" : "", role);
		if (r->has_calls)
			af_sink_printf(out, "%" PRIu64 "/%" PRIu64 " ", e[i].calls, all_calls(callee));
		af_sink_printf(out, "%s %s ", t, o->unit);
		if (e[i].method != AF_NONE)
			af_sink_printf(out, "<a href=\"#m%" PRIu32 "\">[%" PRIu32 "]</a> ",
				       e[i].method + 1, e[i].method + 1);
		af_escape_xml(out, other_name(r, e[i].method));
		af_sink_puts(out, e[i].recursive ? " (recursive)</li>\n" : "</li>\n");
	}
}

static void html_row(const struct af_report *r, const struct af_report_opts *o, size_t i,
		     struct af_sink *out)
{
	const struct af_report_method *m = &r->methods[i];
	char e[64], ep[32], in[64], ip[32];
	weight_str(e, sizeof e, m->exclusive, o->decimals);
	pct_str(ep, sizeof ep, m->exclusive, r->total);
	weight_str(in, sizeof in, m->inclusive, o->decimals);
	pct_str(ip, sizeof ip, m->inclusive, r->total);
	af_sink_printf(out, "<tr id=\"m%zu\"><td>%zu</td><td data-v=\"%s\">%s</td><td data-v=\"%s\">%s%%</td>"
		       "<td data-v=\"%s\">%s</td><td data-v=\"%s\">%s%%</td>",
		       i + 1, i + 1, e, e, ep, ep, in, in, ip, ip);
	if (r->has_calls)
		af_sink_printf(out, "<td data-v=\"%" PRIu64 "\">%" PRIu64 "+%" PRIu64 "</td>",
			       m->calls + m->recursive_calls, m->calls, m->recursive_calls);
	af_sink_puts(out, "<td class=\"m\"><details><summary>");
	af_escape_xml(out, af_tree_name(r->tree, m->name));
	af_sink_puts(out, "</summary><ul>\n");
	html_edges(r, o, "caller", m->parents, m->nparents, m, out);
	html_edges(r, o, "callee", m->children, m->nchildren, m, out);
	af_sink_puts(out, "</ul></details></td></tr>\n");
}

/* The page up to the opening <p>: head, title and heading "what: title". */
static void html_start(struct af_sink *out, const char *what, const char *title)
{
	af_sink_puts(out, html_head);
	af_sink_printf(out, "<title>%s: ", what);
	af_escape_xml(out, title);
	af_sink_printf(out, "</title>\n</head>\n<body>\n<h1>%s: ", what);
	af_escape_xml(out, title);
	af_sink_puts(out, "</h1>\n<p>");
}

static void html_end(struct af_sink *out)
{
	af_sink_puts(out, "</tbody>\n</table>\n");
	af_sink_puts(out, html_script);
	af_sink_puts(out, "</body>\n</html>\n");
}

static void write_html(const struct af_report *r, const struct af_report_opts *o, struct af_sink *out)
{
	char total[64];
	const char *title = o->title ? o->title : "all";
	weight_str(total, sizeof total, r->total, o->decimals);
	html_start(out, "Method profile", title);
	if (o->source) {
		af_escape_xml(out, o->source);
		af_sink_puts(out, " &middot; ");
	}
	if (o->clock) {
		af_escape_xml(out, o->clock);
		af_sink_puts(out, " clock &middot; ");
	}
	af_sink_printf(out, "total %s ", total);
	af_escape_xml(out, o->unit);
	af_sink_printf(out, " in %zu methods", r->nmethods);
	if (shown(r, o) < r->nmethods)
		af_sink_printf(out, " (top %zu shown)", shown(r, o));
	af_sink_puts(out, ". Click a column to sort, a method for its callers and callees.</p>\n"
		     "<table id=\"profile\">\n<thead><tr><th>#</th><th>Exclusive</th><th>%</th>"
		     "<th>Inclusive</th><th>%</th>");
	if (r->has_calls)
		af_sink_puts(out, "<th>Calls+Rec</th>");
	af_sink_puts(out, "<th class=\"m\">Method</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < shown(r, o); i++)
		html_row(r, o, i, out);
	html_end(out);
}

int af_render_report(const struct af_report *r, enum af_report_format fmt,
		     const struct af_report_opts *o, struct af_sink *out)
{
	switch (fmt) {
	case AF_REPORT_TEXT:
		write_text(r, o, out);
		break;
	case AF_REPORT_CSV:
		write_csv(r, o, out);
		break;
	case AF_REPORT_JSON:
		write_json(r, o, out);
		break;
	case AF_REPORT_HTML:
		write_html(r, o, out);
		break;
	}
	return out->error ? -1 : 0;
}

/* ---- comparing two runs ---- */

/* a - b with its sign ("+12", "-3.5", "0") */
static void change_str(char *s, size_t size, uint64_t b, uint64_t a, unsigned decimals)
{
	char w[48];   /* 20 digits, a point and 19 decimals at most */
	weight_str(w, sizeof w, a > b ? a - b : b - a, decimals);
	snprintf(s, size, "%s%s", a > b ? "+" : a < b ? "-" : "", w);
}

/* (a - b) / b in percent with its sign; "new" when b is 0 and a is not */
static void change_pct_str(char *s, size_t size, uint64_t b, uint64_t a)
{
	char p[32];
	if (!b) {
		snprintf(s, size, "%s", a ? "new" : "0.00");
		return;
	}
	pct_str(p, sizeof p, a > b ? a - b : b - a, b);
	snprintf(s, size, "%s%s", a > b ? "+" : a < b ? "-" : "", p);
}

/* The cells of one row: exclusive before, after, change, %, the same for
 * inclusive, calls "before/after". */
enum { C_EB, C_EA, C_EC, C_EP, C_IB, C_IA, C_IC, C_IP, C_CALLS, C_N };
struct cells { char c[C_N][64]; };

static void row_cells(const struct af_report_change *r, unsigned decimals, struct cells *c)
{
	weight_str(c->c[C_EB], 64, r->exclusive[0], decimals);
	weight_str(c->c[C_EA], 64, r->exclusive[1], decimals);
	change_str(c->c[C_EC], 64, r->exclusive[0], r->exclusive[1], decimals);
	change_pct_str(c->c[C_EP], 64, r->exclusive[0], r->exclusive[1]);
	weight_str(c->c[C_IB], 64, r->inclusive[0], decimals);
	weight_str(c->c[C_IA], 64, r->inclusive[1], decimals);
	change_str(c->c[C_IC], 64, r->inclusive[0], r->inclusive[1], decimals);
	change_pct_str(c->c[C_IP], 64, r->inclusive[0], r->inclusive[1]);
	snprintf(c->c[C_CALLS], 64, "%" PRIu64 "/%" PRIu64, r->calls[0], r->calls[1]);
}

static const char *const diff_heads[C_N] = {
	"Excl before", "Excl after", "Change", "%", "Incl before", "Incl after", "Change", "%",
	"Calls",
};

static void diff_text(const struct af_report_diff *rd, const struct af_report_opts *o,
		      struct af_sink *out)
{
	char tb[64], ta[64], tc[64], tp[32];
	weight_str(tb, sizeof tb, rd->total[0], o->decimals);
	weight_str(ta, sizeof ta, rd->total[1], o->decimals);
	change_str(tc, sizeof tc, rd->total[0], rd->total[1], o->decimals);
	change_pct_str(tp, sizeof tp, rd->total[0], rd->total[1]);
	af_sink_puts(out, "Method profile comparison: ");
	term(out, o->title ? o->title : "all");
	af_sink_puts(out, "\nBefore: ");
	term(out, o->source_before ? o->source_before : "-");
	af_sink_puts(out, rd->normalized ? " (normalized to the after total)\nAfter: " : "\nAfter: ");
	term(out, o->source ? o->source : "-");
	af_sink_putc(out, '\n');
	if (o->clock)
		af_sink_printf(out, "Clock: %s (%s)\n", o->clock, o->unit);
	af_sink_printf(out, "Total: %s %s before, %s %s after, %s %s (%s%s)\n", tb, o->unit, ta,
		       o->unit, tc, o->unit, tp, rd->total[0] ? "%" : "");
	af_sink_printf(out, "Methods: %zu (%zu only before, %zu only after, %zu changed)",
		       rd->nmethods, rd->only[0], rd->only[1], rd->changed);
	if (rd->nrows < rd->nmethods)
		af_sink_printf(out, ", the %zu largest changes shown", rd->nrows);
	af_sink_printf(out, "\nSorted by the change of %s time, largest increase first\n\n",
		       rd->by_inclusive ? "inclusive" : "exclusive");
	struct cells *cells = af_xmalloc((rd->nrows ? rd->nrows : 1) * sizeof *cells);
	int w[C_N];
	for (int k = 0; k < C_N; k++)
		w[k] = (int)strlen(diff_heads[k]);
	for (size_t i = 0; i < rd->nrows; i++) {
		row_cells(&rd->rows[i], o->decimals, &cells[i]);
		for (int k = 0; k < C_N; k++)
			if ((int)strlen(cells[i].c[k]) > w[k])
				w[k] = (int)strlen(cells[i].c[k]);
	}
	int ncols = rd->has_calls ? C_N : C_N - 1;
	for (int k = 0; k < ncols; k++)
		af_sink_printf(out, "%*s%s", w[k], diff_heads[k], k == C_EP || k == C_IP ? "   " : "  ");
	af_sink_puts(out, "Method\n");
	for (size_t i = 0; i < rd->nrows; i++) {
		for (int k = 0; k < ncols; k++)
			af_sink_printf(out, "%*s%s", w[k], cells[i].c[k],
				       k == C_EP || k == C_IP ? (strcmp(cells[i].c[k], "new") ? "%  " : "   ")
				       : "  ");
		term(out, rd->rows[i].name);
		af_sink_putc(out, '\n');
	}
	free(cells);
}

static void diff_csv(const struct af_report_diff *rd, const struct af_report_opts *o,
		     struct af_sink *out)
{
	const char *u = strcmp(o->unit, "\xc2\xb5s") == 0 ? "us" : o->unit;
	af_sink_printf(out, "rank,method,exclusive_before_%s,exclusive_after_%s,exclusive_change_%s,"
		       "exclusive_change_pct,inclusive_before_%s,inclusive_after_%s,"
		       "inclusive_change_%s,inclusive_change_pct,calls_before,calls_after\n",
		       u, u, u, u, u, u);
	for (size_t i = 0; i < rd->nrows; i++) {
		struct cells c;
		row_cells(&rd->rows[i], o->decimals, &c);
		af_sink_printf(out, "%zu,", i + 1);
		csv_field(out, rd->rows[i].name);
		for (int k = 0; k < C_CALLS; k++)
			af_sink_printf(out, ",%s", strcmp(c.c[k], "new") ? c.c[k] : "");
		if (rd->has_calls)
			af_sink_printf(out, ",%" PRIu64 ",%" PRIu64 "\n", rd->rows[i].calls[0],
				       rd->rows[i].calls[1]);
		else
			af_sink_puts(out, ",,\n");
	}
}

static void json_run(struct af_sink *out, const char *key, const char *file, uint64_t total,
		     unsigned decimals)
{
	char t[64];
	weight_str(t, sizeof t, total, decimals);
	af_sink_printf(out, ",\"%s\":{\"file\":", key);
	if (file)
		json_string(out, file);
	else
		af_sink_puts(out, "null");
	af_sink_printf(out, ",\"total\":%s}", t);
}

static void diff_json(const struct af_report_diff *rd, const struct af_report_opts *o,
		      struct af_sink *out)
{
	static const char *const keys[C_CALLS] = {
		"exclusive_before", "exclusive_after", "exclusive_change", "exclusive_change_pct",
		"inclusive_before", "inclusive_after", "inclusive_change", "inclusive_change_pct",
	};
	af_sink_puts(out, "{\"title\":");
	json_string(out, o->title ? o->title : "all");
	json_run(out, "before", o->source_before, rd->total[0], o->decimals);
	json_run(out, "after", o->source, rd->total[1], o->decimals);
	af_sink_puts(out, ",\"clock\":");
	if (o->clock)
		json_string(out, o->clock);
	else
		af_sink_puts(out, "null");
	af_sink_puts(out, ",\"unit\":");
	json_string(out, o->unit);
	af_sink_printf(out, ",\"normalized\":%s,\"sorted_by\":\"%s\",\"method_count\":%zu,"
		       "\"only_before\":%zu,\"only_after\":%zu,\"changed\":%zu,\"methods\":[",
		       rd->normalized ? "true" : "false", rd->by_inclusive ? "inclusive" : "exclusive",
		       rd->nmethods, rd->only[0], rd->only[1], rd->changed);
	for (size_t i = 0; i < rd->nrows; i++) {
		struct cells c;
		row_cells(&rd->rows[i], o->decimals, &c);
		af_sink_printf(out, "%s\n  {\"rank\":%zu,\"method\":", i ? "," : "", i + 1);
		json_string(out, rd->rows[i].name);
		for (int k = 0; k < C_CALLS; k++) {
			const char *v = c.c[k][0] == '+' ? c.c[k] + 1 : c.c[k];
			af_sink_printf(out, ",\"%s\":%s", keys[k], strcmp(v, "new") ? v : "null");
		}
		if (rd->has_calls)
			af_sink_printf(out, ",\"calls_before\":%" PRIu64 ",\"calls_after\":%" PRIu64,
				       rd->rows[i].calls[0], rd->rows[i].calls[1]);
		af_sink_putc(out, '}');
	}
	af_sink_puts(out, "\n]}\n");
}

static void diff_html(const struct af_report_diff *rd, const struct af_report_opts *o,
		      struct af_sink *out)
{
	const char *title = o->title ? o->title : "all";
	html_start(out, "Method profile comparison", title);
	af_sink_puts(out, "Before: ");
	af_escape_xml(out, o->source_before ? o->source_before : "-");
	af_sink_puts(out, rd->normalized ? " (normalized to the after total)" : "");
	af_sink_puts(out, " &middot; after: ");
	af_escape_xml(out, o->source ? o->source : "-");
	if (o->clock) {
		af_sink_puts(out, " &middot; ");
		af_escape_xml(out, o->clock);
		af_sink_puts(out, " clock");
	}
	af_sink_printf(out, " &middot; %zu methods (%zu only before, %zu only after). Sorted by the "
		       "change of %s time, largest increase first; click a column to sort.</p>\n"
		       "<table id=\"profile\">\n<thead><tr><th>#</th>", rd->nmethods, rd->only[0],
		       rd->only[1], rd->by_inclusive ? "inclusive" : "exclusive");
	int ncols = rd->has_calls ? C_N : C_N - 1;
	for (int k = 0; k < ncols; k++)
		af_sink_printf(out, "<th>%s</th>", diff_heads[k]);
	af_sink_puts(out, "<th class=\"m\">Method</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < rd->nrows; i++) {
		struct cells c;
		row_cells(&rd->rows[i], o->decimals, &c);
		af_sink_printf(out, "<tr><td>%zu</td>", i + 1);
		for (int k = 0; k < C_CALLS; k++) {
			bool pct = k == C_EP || k == C_IP, isnew = strcmp(c.c[k], "new") == 0;
			af_sink_printf(out, "<td data-v=\"%s\">%s%s</td>", isnew ? "1e300" : c.c[k], c.c[k],
				       pct && !isnew ? "%" : "");
		}
		if (rd->has_calls)
			af_sink_printf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", rd->rows[i].calls[1],
				       c.c[C_CALLS]);
		af_sink_puts(out, "<td class=\"m\">");
		af_escape_xml(out, rd->rows[i].name);
		af_sink_puts(out, "</td></tr>\n");
	}
	html_end(out);
}

int af_render_report_diff(const struct af_report_diff *rd, enum af_report_format fmt,
			  const struct af_report_opts *o, struct af_sink *out)
{
	switch (fmt) {
	case AF_REPORT_TEXT:
		diff_text(rd, o, out);
		break;
	case AF_REPORT_CSV:
		diff_csv(rd, o, out);
		break;
	case AF_REPORT_JSON:
		diff_json(rd, o, out);
		break;
	case AF_REPORT_HTML:
		diff_html(rd, o, out);
		break;
	}
	return out->error ? -1 : 0;
}
