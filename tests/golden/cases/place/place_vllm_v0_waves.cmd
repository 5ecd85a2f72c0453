args: place --model deepseek-v3 --gpus 8 --gpu mi300x --tp 8 --engine vllm-v0 --concurrency 16 --input 3200 --output 800 --requests 64 --warmup 0
exit: 0
