args: place --model 8b --system dgx-h100 --objective throughput --dtype fp8 --kv-dtype fp8 --emit trtllm --json
exit: 0
