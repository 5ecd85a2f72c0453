args: place --model deepseek-v3 --system dgx-b200 --gpus 8 --phase decode --dtype experts=nvfp4,dense=fp8
exit: 0
