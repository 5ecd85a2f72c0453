args: place --model 405b --system gb200-nvl72 --gpus 64 --tp 64 --json
exit: 0
