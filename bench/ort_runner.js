#!/usr/bin/env node
// ort_runner: ONNX Runtime (CPU) side of the model benchmark (bench/run_bench.py). It runs an ONNX file with
// npm's onnxruntime-node exactly as `kindling bench` and bench/libtorch_runner run a TorchScript archive, and
// prints the same figures, so the three can be alternated in one run.
//
//   node bench/ort_runner.js MODEL.onnx --inputs INPUTS.json [--threads N] [--warmup W] [--iters K]
//        [--ort DIR] [--output OUT.bin]
//
// INPUTS.json: [{"name", "dtype" (float32|int64|int32|bool), "shape", "file"}], file = raw little-endian bytes
// next to INPUTS.json (bench/bench_models.py writes them). DIR: the folder whose node_modules holds
// onnxruntime-node (default $KINDLING_ORT_DIR). The session: CPU execution provider, intraOpNumThreads = N,
// interOpNumThreads = 1, sequential execution, graphOptimizationLevel "all" (ORT's best: constant folding,
// node fusions, NCHWc layout transformation). Calls go to the binding's synchronous InferenceSession.run,
// the native call ORT's public run() wraps in a Promise scheduled with setImmediate: the timing is ORT's, not
// Node's event loop. --output writes the first output as raw float32 (the driver checks it against PyTorch).
// Output, one key=value a line: threads, load_ms (session creation: parse, optimize, allocate), first_call_ms,
// cpu_median_ms (process CPU time per call), min_ms, max_rss_kb, last median_ms (wall clock).
// Exit 1 on any error with a one-line message on stderr, 64 on bad usage.
'use strict';
const fs = require('fs');
const path = require('path');

function usage() {
  process.stderr.write('usage: node ort_runner.js MODEL.onnx --inputs INPUTS.json [--threads N] [--warmup W] ' +
                       '[--iters K] [--ort DIR] [--output OUT.bin]\n');
  process.exit(64);
}

function parseArgs(argv) {
  const o = {threads: 1, warmup: 5, iters: 20, ort: process.env.KINDLING_ORT_DIR || '', model: '', inputs: '',
             output: ''};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const next = () => (i + 1 < argv.length ? argv[++i] : usage());
    if (a === '--inputs') o.inputs = next();
    else if (a === '--threads') o.threads = parseInt(next(), 10);
    else if (a === '--warmup') o.warmup = parseInt(next(), 10);
    else if (a === '--iters') o.iters = parseInt(next(), 10);
    else if (a === '--ort') o.ort = next();
    else if (a === '--output') o.output = next();
    else if (a.startsWith('-')) usage();
    else if (!o.model) o.model = a;
    else usage();
  }
  if (!o.model || !o.inputs || !o.ort || !(o.threads >= 1) || !(o.iters >= 1) || !(o.warmup >= 0)) usage();
  return o;
}

const ARRAYS = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array, bool: Uint8Array};

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

function wallMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function cpuMs() {
  const u = process.cpuUsage();  // getrusage(RUSAGE_SELF): every thread of the process, microseconds
  return (u.user + u.system) / 1e3;
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const pkg = path.join(path.resolve(o.ort), 'node_modules', 'onnxruntime-node');
  const ort = require(pkg);
  const {binding, initOrt} = require(path.join(pkg, 'dist', 'binding'));
  initOrt();

  const specs = JSON.parse(fs.readFileSync(o.inputs, 'utf8'));
  const feeds = {};
  for (const s of specs) {
    const Arr = ARRAYS[s.dtype];
    if (!Arr) throw new Error(`${o.inputs}: unsupported dtype '${s.dtype}' of input '${s.name}'`);
    const bytes = fs.readFileSync(path.join(path.dirname(o.inputs), s.file));
    const data = new Arr(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    feeds[s.name] = new ort.Tensor(s.dtype, s.dtype === 'bool' ? Uint8Array.from(data) : data, s.shape);
  }

  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  let t0 = wallMs();
  const session = new binding.InferenceSession();
  session.loadModel(o.model, options);
  const loadMs = wallMs() - t0;
  const outputNames = session.outputMetadata.map((m) => m.name);
  const fetches = {};
  for (const n of outputNames) fetches[n] = null;
  const run = () => session.run(feeds, fetches, {});

  t0 = wallMs();
  const first = run();
  const firstMs = wallMs() - t0;
  if (o.output) {
    const out = first[outputNames[0]];
    const data = out.data instanceof Float32Array ? out.data : Float32Array.from(out.data, Number);
    fs.writeFileSync(o.output, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  for (let i = 0; i < o.warmup; ++i) run();
  const wall = [], cpu = [];
  for (let i = 0; i < o.iters; ++i) {
    const w = wallMs(), c = cpuMs();
    run();
    cpu.push(cpuMs() - c);
    wall.push(wallMs() - w);
  }
  const lines = [
    `threads=${o.threads}`,
    `ort_version=${require(path.join(pkg, 'package.json')).version}`,
    `load_ms=${loadMs.toFixed(3)}`,
    `first_call_ms=${firstMs.toFixed(3)}`,
    `min_ms=${Math.min(...wall).toFixed(4)}`,
    `cpu_median_ms=${median(cpu).toFixed(4)}`,
    `max_rss_kb=${process.resourceUsage().maxRSS}`,
    `median_ms=${median(wall).toFixed(4)}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

try {
  main();
} catch (e) {
  process.stderr.write(`ort_runner: ${String(e && e.message ? e.message : e).replace(/\n/g, ' ').slice(0, 500)}\n`);
  process.exit(1);
}
