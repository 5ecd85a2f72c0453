args: place --model deepseek-r1 --system dgx-b200 --phase decode --context 2048 --tp 8 --engine trtllm --dtype experts=nvfp4,dense=fp8 --spec mtp:1.92 --explain
exit: 0
