args: place --model deepseek-v3 --gpu h800 --gpus 32 --gpus-per-node 8 --scale-out ib-ndr --top 5
exit: 0
