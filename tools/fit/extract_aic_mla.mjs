#!/usr/bin/env node
// Extracts one-layer MLA (DeepSeek-V3 multi-head latent attention) kernel times from NVIDIA's
// aiconfigurator tables into the rows of data/measurements/kernels/mla.csv
// (gpu,engine,version,kernel,phase,batch,tokens,context,heads,kv_heads,head_dim,kv_dtype,latency_ms).
//
// The source is aiconfigurator's systems/data directory (github ai-dynamo/aiconfigurator at
// commit 095f58a51c4ca8e61b66ec108d86f223f8d559ce, Apache-2.0:
// aic-core/src/aiconfigurator_core/systems/data), not in this repository; the tables read are
// <gpu>/mla/<engine>/<version>/{context,generation}_mla_perf.parquet. The parquet files are
// zstd-compressed: the script needs the npm packages hyparquet and hyparquet-compressors,
// resolved from the current directory, so run it where they are installed:
//
//   mkdir -p /tmp/pq && cd /tmp/pq && npm install hyparquet hyparquet-compressors
//   node /path/to/icx/tools/fit/extract_aic_mla.mjs \
//       /path/to/aiconfigurator/aic-core/src/aiconfigurator_core/systems/data \
//       > /path/to/icx/data/measurements/kernels/mla.csv
//
// What is kept (data/measurements/README.md says why):
//   - engines: TensorRT-LLM 1.3.0rc20 and SGLang 0.5.14 on h100_sxm, h200_sxm and b200_sxm.
//     vLLM has no kernel-only MLA table at 0.24.0 (only mla_*_module_perf, the whole attention
//     block with its projections), and its 0.14.0 tables time impl.forward eagerly with the
//     absorbed up-projections, so none is taken.
//   - prefill (context_mla_perf, no earlier context): a bf16 cache, local heads 128, 64, 32,
//     16, 8 (DeepSeek-V3's 128 at TP 1, 2, 4, 8, 16), 1, 8 or 64 prompts of 128 to 16,384
//     tokens. These kernels run the non-absorbed form, each head its own 192-wide query and key
//     (128 + 64 rope) and 128-wide value: head_dim 192 and kv_heads = heads. SGLang's Hopper
//     context tables (kernel flash_attention) are left out: its collector times the absorbed
//     latent form (576-wide query and key, 512-wide value, one KV head), which SGLang's DeepSeek
//     model does not run for a prompt without a cached prefix (it dispatches MHA there).
//   - decode (generation_mla_perf): a bf16 or fp8 cache, the same heads, 1, 8, 64 or 512
//     sequences with 127 to 65,535 cached tokens (`step`); every head reads one latent KV head
//     of 576 (512 + 64 rope): head_dim 576, kv_heads 1.
//   - a shape timed twice (SGLang's H100 tables hold every shape twice) keeps its first row.
// The latencies are copied unchanged (ms, six significant digits).
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const require = createRequire(path.join(process.cwd(), 'package.json'))
const load = async (name) => import(pathToFileURL(require.resolve(name)).href)
const { parquetReadObjects, asyncBufferFromFile } = await load('hyparquet')
const { compressors } = await load('hyparquet-compressors')

const GPUS = [['h100_sxm', 'h100-sxm'], ['h200_sxm', 'h200'], ['b200_sxm', 'b200']]
const ENGINES = [['trtllm', '1.3.0rc20'], ['sglang', '0.5.14']]
const HEADS = [128, 64, 32, 16, 8]
const PREFILL = { batch: [1, 8, 64], tokens: [128, 512, 1024, 2048, 4096, 8192, 16384], dtypes: ['bf16'] }
const DECODE = { batch: [1, 8, 64, 512], context: [127, 1023, 4095, 16383, 65535], dtypes: ['bf16', 'fp8'] }
const DTYPE = { bfloat16: 'bf16', fp8: 'fp8' }

const root = process.argv[2]
if (!root) {
  process.stderr.write('usage: node extract_aic_mla.mjs AICONFIGURATOR_SYSTEMS_DATA_DIR > mla.csv\n')
  process.exit(2)
}

async function table(gpu, engine, version, name) {
  const file = path.join(root, gpu, 'mla', engine, version, `${name}_mla_perf.parquet`)
  if (!fs.existsSync(file)) throw new Error(`missing ${file}`)
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })
  const first = new Map()
  for (const r of rows) {
    const key = [r.kv_cache_dtype, r.num_heads, r.batch_size, r.isl, r.step].map(String).join('/')
    if (!first.has(key)) first.set(key, r)
  }
  return first
}

const out = ['gpu,engine,version,kernel,phase,batch,tokens,context,heads,kv_heads,head_dim,kv_dtype,latency_ms']
let missing = 0
for (const [dir, gpu] of GPUS) {
  for (const [engine, version] of ENGINES) {
    const phases = [['context', 'prefill'], ['generation', 'decode']]
    for (const [name, phase] of phases) {
      const rows = await table(dir, engine, version, name)
      const sample = rows.values().next().value
      // SGLang's Hopper context tables time the absorbed latent form (see above).
      if (phase === 'prefill' && engine === 'sglang' && sample.kernel_source === 'flash_attention') continue
      const spec = phase === 'prefill' ? PREFILL : DECODE
      for (const heads of HEADS) {
        for (const batch of spec.batch) {
          for (const n of phase === 'prefill' ? spec.tokens : spec.context) {
            for (const dtype of spec.dtypes) {
              const source = Object.keys(DTYPE).find((k) => DTYPE[k] === dtype)
              const isl = phase === 'prefill' ? n : 1
              const step = phase === 'prefill' ? 0 : n
              const r = rows.get([source, heads, batch, isl, step].map(String).join('/'))
              if (!r) { missing += 1; continue }
              const latency = Number(Number(r.latency).toPrecision(6))
              out.push([gpu, engine, version, r.kernel_source, phase, batch,
                phase === 'prefill' ? n : 1, phase === 'prefill' ? 0 : n, heads,
                phase === 'prefill' ? heads : 1, phase === 'prefill' ? 192 : 576, dtype,
                String(latency)].join(','))
            }
          }
        }
      }
    }
  }
}
process.stdout.write(out.join('\n') + '\n')
process.stderr.write(`${out.length - 1} rows; ${missing} shapes not in the tables (past their token limits)\n`)
