args: place --hf-config ../data/hf/llama-3.1-8b.json --system dgx-h100 --dtype fp8 --emit trtllm
exit: 2
