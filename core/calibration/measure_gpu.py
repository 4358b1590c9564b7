"""Measures peak GPU memory and throughput of a few training and inference jobs on the local GPU.

Used to check GpuSizer's estimators against a real card: each case prints one JSON line with the peak memory as
PyTorch allocates it (torch.cuda.max_memory_allocated), as the caching allocator reserved it
(max_memory_reserved), as the driver sees it (total - free from cudaMemGetInfo, i.e. what nvidia-smi shows for
this process, CUDA context included), and the measured throughput.

Models are built from their published configurations with random weights (no downloads). Run:
    python3 core/calibration/measure_gpu.py [OUT_DIR]
"""
import json
import os
import sys
import time
import traceback

import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
RESULTS = []
DEV = torch.device("cuda")


def driver_used():
    free, total = torch.cuda.mem_get_info()
    return total - free


def record(case, **kw):
    row = {"case": case, "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__}
    row.update(kw)
    RESULTS.append(row)
    print(json.dumps(row), flush=True)
    with open(os.path.join(OUT, "results.jsonl"), "a") as f:
        f.write(json.dumps(row) + "\n")


def reset():
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


def peaks():
    torch.cuda.synchronize()
    return {
        "max_allocated_bytes": torch.cuda.max_memory_allocated(),
        "max_reserved_bytes": torch.cuda.max_memory_reserved(),
        "driver_used_bytes": driver_used(),
    }


def timed(step, warmup=3, iters=10):
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        step()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters


def case(fn):
    def run():
        reset()
        try:
            fn()
        except Exception as e:  # one failing case must not hide the others
            record(fn.__name__, error=repr(e), trace=traceback.format_exc()[-800:])
        reset()
    return run


def matmul_peak():
    n = 8192
    a = torch.randn(n, n, device=DEV, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=DEV, dtype=torch.bfloat16)
    s = timed(lambda: a @ b, warmup=3, iters=20)
    record("matmul_bf16_8192", tflops=2 * n ** 3 / s / 1e12)
    x = torch.randn(1 << 28, device=DEV, dtype=torch.float32)  # 1 GiB
    y = torch.empty_like(x)
    s = timed(lambda: y.copy_(x), warmup=3, iters=20)
    record("copy_1GiB", gbps_read_plus_write=2 * x.numel() * 4 / s / 1e9)


def train_lm(name, model, batch, seq, vocab, precision, optimizer="adamw", checkpointing=False, iters=10):
    model.to(DEV)
    if checkpointing:
        model.gradient_checkpointing_enable()
    model.train()
    n_params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    ids = torch.randint(0, vocab, (batch, seq), device=DEV)
    dtype = {"bf16_mixed": torch.bfloat16, "fp16_mixed": torch.float16}.get(precision)

    def step():
        with torch.autocast("cuda", dtype=dtype, enabled=dtype is not None):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    s = timed(step, warmup=3, iters=iters)
    record(name, params=n_params, batch=batch, seq=seq, precision=precision, optimizer=optimizer,
           checkpointing=checkpointing, step_s=s, tokens_per_s=batch * seq / s,
           model_tflops_6n=6 * n_params * batch * seq / s / 1e12, **peaks())
    del opt, model


@case
def gpt2_small_train():
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(n_positions=1024, n_embd=768, n_layer=12, n_head=12, vocab_size=50257)
    train_lm("gpt2_small_train_bf16_b8_s1024", GPT2LMHeadModel(cfg), 8, 1024, 50257, "bf16_mixed")


@case
def gpt2_medium_train():
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(n_positions=1024, n_embd=1024, n_layer=24, n_head=16, vocab_size=50257)
    train_lm("gpt2_medium_train_bf16_b8_s1024", GPT2LMHeadModel(cfg), 8, 1024, 50257, "bf16_mixed")


def tinyllama_config():
    from transformers import LlamaConfig
    cfg = LlamaConfig(vocab_size=32000, hidden_size=2048, intermediate_size=5632, num_hidden_layers=22,
                      num_attention_heads=32, num_key_value_heads=4, max_position_embeddings=2048,
                      tie_word_embeddings=False)
    return cfg


@case
def tinyllama_train():
    from transformers import LlamaForCausalLM
    train_lm("tinyllama_1.1b_train_bf16_b4_s2048", LlamaForCausalLM(tinyllama_config()), 4, 2048, 32000,
             "bf16_mixed")


@case
def tinyllama_train_ckpt():
    from transformers import LlamaForCausalLM
    train_lm("tinyllama_1.1b_train_bf16_b4_s2048_fullckpt", LlamaForCausalLM(tinyllama_config()), 4, 2048, 32000,
             "bf16_mixed", checkpointing=True)


def llama2_7b_config():
    from transformers import LlamaConfig
    cfg = LlamaConfig(vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                      num_attention_heads=32, num_key_value_heads=32, max_position_embeddings=4096,
                      tie_word_embeddings=False)
    return cfg


@case
def llama2_7b_lora():
    from transformers import LlamaForCausalLM
    from peft import LoraConfig, get_peft_model
    with torch.device(DEV):
        model = LlamaForCausalLM(llama2_7b_config()).to(torch.bfloat16)  # bf16-true, as LitGPT's bf16-true
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"],
                                             lora_dropout=0.0))
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
    for seq in (512, 1024):
        ids = torch.randint(0, 32000, (1, seq), device=DEV)

        def step():
            loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        torch.cuda.reset_peak_memory_stats()
        s = timed(step, warmup=2, iters=5)
        record(f"llama2_7b_lora_r8_qv_bf16true_b1_s{seq}", trainable=trainable, batch=1, seq=seq, step_s=s,
               tokens_per_s=seq / s, **peaks())
    del model, opt


@case
def llama2_7b_infer():
    from transformers import LlamaForCausalLM
    with torch.device(DEV):
        model = LlamaForCausalLM(llama2_7b_config()).to(torch.bfloat16)
    model.eval()
    for batch in (1, 16):
        prompt = torch.randint(0, 32000, (batch, 128), device=DEV)
        torch.cuda.reset_peak_memory_stats()
        with torch.inference_mode():
            model.generate(prompt, max_new_tokens=8, min_new_tokens=8, do_sample=False)  # warm-up
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            model.generate(prompt, max_new_tokens=256, min_new_tokens=256, do_sample=False)
            torch.cuda.synchronize()
            s = time.perf_counter() - t0
        record(f"llama2_7b_generate_bf16_b{batch}_p128_g256", batch=batch, prompt=128, generated=256, wall_s=s,
               decode_tokens_per_s=batch * 256 / s, **peaks())
    del model


@case
def resnet50_train():
    import torchvision
    model = torchvision.models.resnet50().to(DEV).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler()
    batch = 256
    x = torch.randn(batch, 3, 224, 224, device=DEV).to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (batch,), device=DEV)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        with torch.autocast("cuda", dtype=torch.float16):
            loss = loss_fn(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)

    s = timed(step, warmup=5, iters=15)
    record("resnet50_train_amp_fp16_b256_224", batch=batch, step_s=s, images_per_s=batch / s, **peaks())


@case
def bert_large_train():
    from transformers import BertConfig, BertForPreTraining
    cfg = BertConfig(vocab_size=30522, hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                     intermediate_size=4096, max_position_embeddings=512)
    model = BertForPreTraining(cfg).to(DEV)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    batch, seq = 64, 128
    ids = torch.randint(0, 30522, (batch, seq), device=DEV)

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = model(input_ids=ids, labels=ids, next_sentence_label=torch.zeros(batch, dtype=torch.long, device=DEV))
        out.loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    s = timed(step)
    record("bert_large_pretrain_bf16_b64_s128", params=sum(p.numel() for p in model.parameters()), batch=batch,
           seq=seq, step_s=s, sequences_per_s=batch / s, **peaks())


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    t_start = time.time()
    record("device", name=torch.cuda.get_device_name(0), capability=list(torch.cuda.get_device_capability(0)),
           total_bytes=torch.cuda.mem_get_info()[1], baseline_driver_used_bytes=driver_used())
    torch.ones(1, device=DEV)
    record("context", driver_used_after_init_bytes=driver_used())
    for c in (case(matmul_peak), gpt2_small_train, gpt2_medium_train, tinyllama_train, tinyllama_train_ckpt,
              resnet50_train, bert_large_train, llama2_7b_lora, llama2_7b_infer):
        c()
        print(f"elapsed {time.time() - t_start:.0f}s", flush=True)
