package dev.strata.spark.search

import org.apache.lucene.analysis.standard.StandardAnalyzer
import org.apache.lucene.document.{Document, Field, StoredField, TextField}
import org.apache.lucene.index.{DirectoryReader, IndexWriter, IndexWriterConfig}
import org.apache.lucene.queryparser.classic.QueryParser
import org.apache.lucene.search.IndexSearcher
import org.apache.lucene.store.ByteBuffersDirectory

/** The search suites' oracle: one in-memory Lucene index (standard analyzer, field `body`, classic
  * query syntax) over exactly the given documents, independent of Strata's archives.
  */
object BruteForceIndex {

  /** For each query, the keys of the documents whose body it matches; null bodies are not indexed.
    */
  def matches[K](docs: Iterable[(K, String)], queries: Seq[String]): Map[String, Set[K]] = {
    val keys = docs.collect { case (k, body) if body != null => (k, body) }.toIndexedSeq
    val dir = new ByteBuffersDirectory()
    val writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))
    keys.zipWithIndex.foreach { case ((_, body), ordinal) =>
      val doc = new Document()
      doc.add(new StoredField("ordinal", ordinal))
      doc.add(new TextField("body", body, Field.Store.NO))
      writer.addDocument(doc)
    }
    writer.close()
    val reader = DirectoryReader.open(dir)
    try {
      val searcher = new IndexSearcher(reader)
      queries.map { q =>
        val parsed = new QueryParser("body", new StandardAnalyzer()).parse(q)
        val top = searcher.search(parsed, math.max(1, reader.maxDoc()))
        q -> top.scoreDocs.iterator.map { sd =>
          keys(
            searcher.storedFields().document(sd.doc).getField("ordinal").numericValue().intValue()
          )._1
        }.toSet
      }.toMap
    } finally reader.close()
  }
}
