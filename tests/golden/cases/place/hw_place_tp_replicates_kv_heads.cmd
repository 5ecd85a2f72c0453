args: place --model 405b --system gb200-nvl72 --gpus 64 --tp 64 --gpus-per-node 64
exit: 0
