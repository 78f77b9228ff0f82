import { css } from 'lit';

/**
 * The chart figure, and the few layout rules uPlot's markup needs (its own stylesheet targets the
 * document; this element's shadow root needs them here): stacked canvases and overlays.
 */
export default css`
  :host {
    display: block;
  }
  figure {
    margin: 0 0 1.5rem;
  }
  figcaption {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.5rem 1rem;
    font-weight: 600;
    margin-bottom: 0.5rem;
  }
  .legend {
    display: flex;
    gap: 1rem;
    font-weight: 400;
    font-size: 0.9rem;
    margin-inline-end: auto;
  }
  .swatch {
    display: inline-block;
    width: 0.8rem;
    height: 0.8rem;
    border-radius: 2px;
    margin-inline-end: 0.3rem;
    vertical-align: -0.05rem;
  }
  .plot {
    /* uPlot places its canvases and cursor with \`left\`: time runs left to right in every language */
    direction: ltr;
    min-height: 12rem;
  }
  .empty {
    margin: 0;
    padding: 2rem 0;
    text-align: center;
    color: var(--aicd-muted, #4d5560);
    border: 1px dashed var(--aicd-border, #d5d9df);
    border-radius: 8px;
  }
  .uplot,
  .uplot * {
    box-sizing: border-box;
  }
  .uplot {
    position: relative;
    width: min-content;
  }
  .u-wrap {
    position: relative;
    user-select: none;
  }
  .u-over,
  .u-under,
  .u-axis,
  .u-select,
  .u-cursor-x,
  .u-cursor-y,
  .u-cursor-pt {
    position: absolute;
  }
  .u-over,
  .u-under {
    overflow: hidden;
  }
  .uplot canvas {
    display: block;
    position: relative;
    width: 100%;
    height: 100%;
  }
  .u-select {
    background: rgb(0 0 0 / 7%);
    pointer-events: none;
  }
  .u-cursor-x,
  .u-cursor-y,
  .u-cursor-pt {
    left: 0;
    top: 0;
    pointer-events: none;
  }
  .u-hz .u-cursor-x {
    height: 100%;
    border-right: 1px dashed #6b7480;
  }
  .u-hz .u-cursor-y {
    width: 100%;
    border-bottom: 1px dashed #6b7480;
  }
  .u-cursor-pt {
    border-radius: 50%;
    border: 0 solid;
  }
  .u-off,
  .u-legend {
    display: none;
  }
`;
