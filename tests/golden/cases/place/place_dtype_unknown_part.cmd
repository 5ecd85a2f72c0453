args: place --model deepseek-v3 --system dgx-b200 --gpus 8 --dtype attention=fp8
exit: 2
