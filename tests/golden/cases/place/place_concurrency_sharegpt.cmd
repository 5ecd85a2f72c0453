args: place --model llama-3.1-8b --gpu h100-sxm --gpus 1 --concurrency 16 --input 1000 --output 200 --lengths sharegpt
exit: 0
