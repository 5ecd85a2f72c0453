args: place --model 405b --system dgx-h200 --dtype fp8 --kv-dtype fp8 --phase decode --context 1024 --objective throughput --max-batch 1024
exit: 0
