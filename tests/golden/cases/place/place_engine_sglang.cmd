args: place --model 70b --gpus 8 --gpu h100-sxm --phase decode --objective throughput --engine sglang
exit: 0
