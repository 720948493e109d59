/* SPDX-License-Identifier: GPL-2.0 */
/* Every engine, one line each: ENGINE(symbol prefix), which is also its
 * fio name.  Adding an engine is one file in user/workload/engines/ (its
 * options included) plus one line here. */
ENGINE(psync)
ENGINE(sync)
ENGINE(vsync)
ENGINE(pvsync)
ENGINE(pvsync2)
ENGINE(libaio)
ENGINE(io_uring)
ENGINE(mmap)
ENGINE(posixaio)
ENGINE(null)
ENGINE(filecreate)
ENGINE(filestat)
ENGINE(filedelete)
ENGINE(dircreate)
ENGINE(dirstat)
ENGINE(dirdelete)
ENGINE(ftruncate)
ENGINE(falloc)
ENGINE(e4defrag)
ENGINE(io_uring_cmd)
