args: validate --serving serving/vllm_llama33_70b_tp8_a100_qps_01.json --model 70b --system aws-p4d --tp 8 --lengths sharegpt --spread 0.5
exit: 2
