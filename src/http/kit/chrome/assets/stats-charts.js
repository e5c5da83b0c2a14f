// Draws the stats pages' charts with uPlot (loaded before this file) from the data-series
// attribute of #stats-charts. The same numbers are in the page's table, so without
// JavaScript nothing is lost. Styles come from app.css and uplot.css: nothing inline.
/* global document, window, uPlot */
(function () {
  'use strict';
  var root = document.getElementById('stats-charts');
  if (!root || typeof uPlot !== 'function') return;
  var series = JSON.parse(root.getAttribute('data-series'));
  // uPlot's x axis is in seconds since the epoch; the days are UTC dates.
  var xs = series.dates.map(function (date) {
    return Date.parse(date + 'T00:00:00Z') / 1000;
  });
  var charts = {
    submissions: {
      lines: [
        { label: 'Submissions', stroke: '#2450c8', fill: 'rgba(36, 80, 200, 0.12)' },
        { label: 'Spam', stroke: '#a40000' },
      ],
      data: [series.submissions, series.spam],
    },
    deliveries: {
      lines: [
        { label: 'Succeeded', stroke: '#17643a', fill: 'rgba(23, 100, 58, 0.12)' },
        { label: 'Failed', stroke: '#a40000' },
      ],
      data: [series.succeeded, series.failed],
    },
    latency: {
      lines: [
        { label: 'Median ms', stroke: '#2450c8', spanGaps: true },
        { label: '95th pct. ms', stroke: '#b36b00', spanGaps: true },
      ],
      data: [series.medianMs, series.p95Ms],
    },
  };
  var figures = root.querySelectorAll('[data-chart]');
  var drawn = [];
  Array.prototype.forEach.call(figures, function (figure) {
    var chart = charts[figure.getAttribute('data-chart')];
    if (!chart) return;
    var options = {
      width: Math.max(280, figure.clientWidth),
      height: 220,
      scales: { x: { time: true } },
      series: [{}].concat(chart.lines),
      axes: [{}, { size: 50 }],
    };
    drawn.push({ figure: figure, plot: new uPlot(options, [xs].concat(chart.data), figure) });
  });
  window.addEventListener('resize', function () {
    drawn.forEach(function (entry) {
      entry.plot.setSize({ width: Math.max(280, entry.figure.clientWidth), height: 220 });
    });
  });
})();
