args: place --model no-context --gpu h100-sxm --gpus 1 --engine vllm-v0 --concurrency 4 --catalog catalogs/model_without_context.json
exit: 2
