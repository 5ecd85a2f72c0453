args: offload --model 70b --system gb200-nvl72 --gpus 2 --reserve 0.9 --json
exit: 0
