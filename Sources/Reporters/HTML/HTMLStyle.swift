/// The report's stylesheet, inlined in every page (no network, one file).
enum HTMLStyle {
    static let css = """
    :root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --bad: #d64545; --ok: #2f855a; --teal: #0f766e;
            --blue: #2563eb; --violet: #7c3aed; --bg: #f8fafc; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: #fff; }
    main { max-width: 1360px; margin: 0 auto; padding: 20px 20px 48px; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
    h3.close-up { font-size: 14px; font-weight: 600; margin: 16px 0 6px; color: var(--muted); }
    h3.close-up a { color: var(--bad); }
    code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
    code { background: #f0f4f8; padding: 1px 5px; border-radius: 4px; }
    a { color: var(--blue); }
    .summary { color: var(--muted); margin: 2px 0 12px; font-size: 15px; }
    .badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 600; font-size: 12.5px; vertical-align: middle; }
    .badge.ok { background: #e3f9ec; color: var(--ok); }
    .badge.bad { background: #fde8e8; color: var(--bad); }
    .badge.none { background: #eef0f3; color: #4a5568; }
    .kind { display: inline-block; padding: 1px 8px; border-radius: 4px; background: #fde8e8; color: #a61b1b; font-weight: 600; font-size: 12.5px; }
    .facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 10px 0 0; }
    .facts dt { color: var(--muted); }
    .facts dd { margin: 0; }
    .headline { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
    .callout { border-left: 4px solid var(--bad); background: #fff5f5; padding: 10px 14px; margin: 14px 0 0; border-radius: 0 6px 6px 0; }
    .callout.ok { border-color: var(--ok); background: #f0fff4; }
    .scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); }
    .legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 0 0 8px; color: var(--muted); font-size: 12.5px; }
    .legend span { display: inline-flex; align-items: center; gap: 6px; }
    .legend svg { vertical-align: middle; }
    table { border-collapse: collapse; width: 100%; margin: 6px 0; }
    th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; color: var(--muted); font-size: 12.5px; background: var(--bg); }
    td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.current td { background: #fffbea; }
    tr.flagged td { background: #fff5f5; }
    ol.anomalies { padding-left: 0; list-style: none; }
    ol.anomalies li { padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; margin: 0 0 8px; }
    ol.anomalies li:target { border-color: var(--bad); box-shadow: 0 0 0 3px #fde8e8; }
    .num-dot { display: inline-block; min-width: 22px; height: 22px; line-height: 22px; border-radius: 11px; background: var(--bad); color: #fff; text-align: center; font-weight: 700; font-size: 12px; margin-right: 6px; }
    .where { color: var(--muted); font-size: 12.5px; margin-left: 6px; }
    .explanation { margin: 6px 0 0; font-size: 14.5px; }
    .step-text { margin: 4px 0 0; color: var(--muted); }
    .hists { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 12px; }
    .hists svg { border: 1px solid var(--line); border-radius: 8px; background: #fff; }
    footer { margin-top: 36px; color: var(--muted); font-size: 12px; }
    /* timeline */
    svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
    /* drawn 1320 wide: scaled to fit a narrower page down to 960, scrolled below that, so the run's end
       (where what is judged at the end is marked) is on screen */
    svg.timeline { display: block; width: 100%; max-width: 1320px; min-width: 960px; height: auto; }
    .timeline .grid { stroke: #e4e7eb; stroke-width: 1; }
    .timeline .tick { font-size: 11px; fill: var(--muted); }
    .lane-bg { fill: #fff; }
    .lane-name { font-size: 15px; font-weight: 700; fill: var(--ink); }
    .lane-detail { font-size: 10.5px; fill: var(--muted); }
    .state-active { fill: #e3f4ea; }
    .state-background { fill: #fdf0d5; }
    .state-suspended { fill: url(#hatch); }
    .state-not-running { fill: #f5f7fa; }
    .band-suspended { fill: #6b7a99; }
    .band-background { fill: #d69e2e; }
    .band-label { font-size: 10px; fill: #3e4c63; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
    .hatch-bg { fill: #e6e9f0; } .hatch-line { stroke: #c5cbd8; stroke-width: 3; }
    .step-tick { stroke: #9aa5b1; stroke-width: 1; }
    .step-label { font-size: 10px; fill: #52606d; paint-order: stroke; stroke: #fff; stroke-opacity: 0.85; stroke-width: 3px; }
    .refresh { fill: var(--violet); fill-opacity: 0.75; }
    .notification { fill: var(--blue); }
    .message { stroke: var(--blue); stroke-opacity: 0.45; stroke-width: 1; }
    .message.held { stroke-dasharray: 3 3; }
    .message.lost { stroke: var(--bad); stroke-opacity: 0.6; stroke-dasharray: 3 3; }
    .notification-lost path { fill: none; stroke: var(--bad); stroke-width: 1.5; }
    .read { fill: #52606d; }
    .read-attempt { fill: #b8c2cc; }
    .read-retries path { fill: none; stroke: #8a96a3; stroke-width: 1.5; }
    .retry-count { font-size: 10px; fill: #5b6772; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
    .save { fill: var(--teal); stroke: #fff; stroke-width: 2; }
    .save-label { font-size: 10.5px; font-weight: 600; fill: var(--teal); }
    .propagation { fill: none; stroke: var(--teal); stroke-opacity: 0.55; stroke-width: 1.6; }
    .propagation.dense { stroke-opacity: 0.25; stroke-width: 1; }
    .arrowhead { fill: var(--teal); }
    .missed { fill: none; stroke: var(--bad); stroke-width: 2; stroke-dasharray: 6 4; }
    .arrowhead-bad { fill: var(--bad); }
    .missed-label { font-size: 11px; font-style: italic; fill: var(--bad); paint-order: stroke; stroke: #fff; stroke-width: 3px; }
    .crash { stroke: var(--bad); stroke-width: 3; }
    .anomaly-dot { fill: var(--bad); stroke: #fff; stroke-width: 2; }
    .anomaly-number { font-size: 11px; font-weight: 700; fill: #fff; }
    .anomaly-label { font-size: 11.5px; font-weight: 700; fill: #a61b1b; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
    .anomaly:hover .anomaly-dot { r: 12; }
    .anomaly-more { font-size: 10px; font-weight: 700; fill: #a61b1b; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
    .missed.on-demand { visibility: hidden; }
    .dot-refreshed { fill: var(--teal); }
    .dot-shown { fill: #4c7bd9; }
    .dot-never { stroke: var(--bad); stroke-width: 1.5; fill: none; }
    .compare-chart { display: block; max-width: 100%; height: auto; margin: 8px 0 16px; }
    .compare-chart .bar-shown { fill: #4c7bd9; }
    .chart-key, .bar-value { font-size: 11px; fill: var(--muted); }
    .chart-label { font-size: 13px; font-weight: 600; fill: var(--ink); }
    .bar-never { font-size: 11px; font-weight: 600; fill: var(--bad); }
    .chart-ok { font-size: 12px; fill: var(--ok); }
    .chart-bad { font-size: 12px; fill: var(--bad); font-weight: 600; }
    .anomaly:hover .missed.on-demand, a:target .missed.on-demand { visibility: visible; }
    .anomaly-kinds { margin: 0 0 10px; }
    .anomaly-kinds a { margin-right: 14px; }
    .by-object { color: var(--muted); font-size: 13px; margin: 0 0 10px; }
    .key-input { position: absolute; opacity: 0; pointer-events: none; }
    .key-filter { font-size: 13px; margin: 6px 0 8px; display: flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; }
    .key-caption { color: var(--muted); margin-right: 4px; }
    .key-filter label { cursor: pointer; border: 1px solid var(--line); border-radius: 10px; padding: 1px 8px; background: #fff; }
    .key-count { color: #a61b1b; font-weight: 700; font-size: 11px; }
    .mark { transition: opacity 0.1s; }
    td.over { color: var(--bad); font-weight: 700; }
    .step-note { color: var(--muted); font-size: 12.5px; margin-top: 2px; }
    .limit { color: var(--muted); font-weight: 400; font-size: 12px; }
    details.more-anomalies > summary { cursor: pointer; color: var(--muted); margin: 0 0 8px; }
    /* histograms */
    .hist-title { font-size: 13px; font-weight: 700; fill: var(--ink); }
    .hist-note { font-size: 11px; fill: var(--muted); }
    .hist-empty { font-size: 12px; fill: var(--muted); }
    .hist-axis { stroke: #9aa5b1; }
    .bar { fill: var(--teal); fill-opacity: 0.8; }
    .bar-count { font-size: 10px; fill: var(--ink); }
    .bar-label { font-size: 9.5px; fill: var(--muted); }
    """
}
